import type { AnalysisLanguage, KnowledgeDetail } from '../../api/knowledge';
import { formatLanguageName, formatPercent } from '../../lib/format';
import { useT } from '../../lib/i18n';

/** ISO codes of the analysis languages, so their names show in the UI's language. */
const CODES: Record<AnalysisLanguage, string> = {
  english: 'en',
  german: 'de',
  french: 'fr',
  spanish: 'es',
  italian: 'it',
  portuguese: 'pt',
  dutch: 'nl',
  swedish: 'sv',
  norwegian: 'no',
  danish: 'da',
  finnish: 'fi',
  turkish: 'tr',
  russian: 'ru',
  ukrainian: 'uk',
  chinese: 'zh',
  japanese: 'ja',
};

/** An analysis language's name in the UI's language ("german" → "German", "Deutsch"). */
export function languageName(language: AnalysisLanguage): string {
  return formatLanguageName(CODES[language]);
}

/** The language a base is analysed in and, while a language change re-indexes it, how far that got. */
export function ReindexProgress({ base }: { base: Pick<KnowledgeDetail, 'language' | 'reindexing'> }) {
  const t = useT();
  const language = base.language ? languageName(base.language) : t('knowledge.languageDetect');
  if (base.reindexing === null) {
    return (
      <div className="small muted" data-testid="knowledge-language">
        {t('knowledge.analysedIn', { language })}
      </div>
    );
  }
  const percent = Math.round(base.reindexing * 100);
  const shown = formatPercent(base.reindexing);
  return (
    <div className="col" style={{ gap: 4 }} data-testid="knowledge-reindexing">
      <div className="small muted" role="status">
        {t('knowledge.reindexing', { language, percent: shown })}
      </div>
      <div className="progress" role="progressbar" aria-label={t('knowledge.reindexingLabel')} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
        <span style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
