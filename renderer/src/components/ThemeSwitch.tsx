import { useSettings } from '../app/settings';
import type { ThemeChoice } from '../app/theme';
import { useT } from '../lib/i18n';
import { Icon, type IconName } from './Icon';

const CHOICES: Array<{ value: ThemeChoice; icon: IconName; label: 'theme.light' | 'theme.dark' | 'theme.system' }> = [
  { value: 'light', icon: 'sun', label: 'theme.light' },
  { value: 'dark', icon: 'moon', label: 'theme.dark' },
  { value: 'system', icon: 'monitor', label: 'theme.system' },
];

/** Light / dark / system, saved to the account's UI settings. */
export function ThemeSwitch() {
  const t = useT();
  const { theme, update } = useSettings();
  return (
    <div className="segmented" role="radiogroup" aria-label={t('nav.theme')}>
      {CHOICES.map((c) => (
        <button key={c.value} type="button" role="radio" aria-checked={theme === c.value} onClick={() => void update({ theme: c.value })}>
          <Icon name={c.icon} size={14} />
          {t(c.label)}
        </button>
      ))}
    </div>
  );
}
