import { availableLanguages, rememberLanguage, setLanguage, useLanguage, useT } from '../lib/i18n';
import { SelectField } from './Field';

/**
 * The language menu, each language named in itself. The choice applies at once and is kept on
 * this device; `onChosen` also saves it elsewhere (the account's UI settings when signed in).
 */
export function LanguagePicker({ onChosen, compact }: { onChosen?: (code: string) => void; compact?: boolean }) {
  const t = useT();
  const language = useLanguage();
  const choose = (code: string) => {
    rememberLanguage(code);
    void setLanguage(code);
    onChosen?.(code);
  };
  const options = availableLanguages().map((l) => (
    <option key={l.code} value={l.code} lang={l.code} dir={l.dir}>
      {l.name}
    </option>
  ));
  if (compact) {
    return (
      <select className="select language-select" aria-label={t('language.label')} value={language} onChange={(e) => choose(e.target.value)} data-testid="language-picker">
        {options}
      </select>
    );
  }
  return (
    <SelectField label={t('language.label')} value={language} onChange={(e) => choose(e.target.value)} data-testid="language-picker">
      {options}
    </SelectField>
  );
}
