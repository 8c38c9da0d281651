import type { KnowledgeDetail } from '../../api/knowledge';
import { useT } from '../../lib/i18n';

/** A language's name as the UI shows it ("german" → "German"). */
export function languageName(language: string): string {
  return language.charAt(0).toUpperCase() + language.slice(1);
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
  return (
    <div className="col" style={{ gap: 4 }} data-testid="knowledge-reindexing">
      <div className="small muted" role="status">
        {t('knowledge.reindexing', { language, percent })}
      </div>
      <div className="progress" role="progressbar" aria-label={t('knowledge.reindexingLabel')} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
        <span style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
