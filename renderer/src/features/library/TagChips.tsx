import { useT } from '../../lib/i18n';

/** Tag chips; clicking one filters the sidebar by it. */
export function TagChips({ tags, onPick }: { tags: string[]; onPick: (tag: string) => void }) {
  const t = useT();
  if (tags.length === 0) return null;
  return (
    <span className="tag-chips">
      {tags.map((tag) => (
        <button key={tag} type="button" className="tag-chip" onClick={() => onPick(tag)} title={t('library.filterTag', { name: tag })}>
          #{tag}
        </button>
      ))}
    </span>
  );
}
