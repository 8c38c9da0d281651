import { noteText, type Note } from '../../api/notes';
import { Icon } from '../../components/Icon';
import { Modal } from '../../components/Modal';
import { useT } from '../../lib/i18n';
import { formatDateTime } from '../../lib/format';
import { mergeTexts } from './merge';

/** What the person chose: the text to keep editing (merged or theirs-as-base with mine), or null for theirs as saved. */
export type Resolution = { title: string; text: string; conflicts: number } | null;

/**
 * Shown when a save met a newer version saved by someone else: both versions side by side, and
 * three ways on — merge them (changes on one side only are taken, lines both changed keep both,
 * marked), keep mine (saved over theirs), keep theirs (mine is dropped). Closing merges: nothing
 * is lost by dismissing it.
 */
export function ConflictDialog({ base, mine, theirs, onResolve }: { base: { title: string; text: string }; mine: { title: string; text: string }; theirs: Note; onResolve: (next: Resolution) => void }) {
  const t = useT();
  const theirsText = noteText(theirs);
  const merge = () => {
    const merged = mergeTexts(base.text, mine.text, theirsText, { mine: t('notes.conflictMine'), theirs: t('notes.conflictTheirs') });
    onResolve({ title: mine.title !== base.title ? mine.title : theirs.title, text: merged.text, conflicts: merged.conflicts });
  };
  return (
    <Modal
      title={t('notes.conflictTitle')}
      onClose={merge}
      wide
      footer={
        <>
          {/* Merge comes first, so it has the focus (Enter merges); it is shown last, as the main action. */}
          <button type="button" className="btn primary" style={{ order: 3 }} onClick={merge}>
            <Icon name="check" size={15} />
            {t('notes.merge')}
          </button>
          <button type="button" className="btn" style={{ order: 2 }} onClick={() => onResolve({ ...mine, conflicts: 0 })}>
            {t('notes.keepMine')}
          </button>
          <button type="button" className="btn" style={{ order: 1 }} onClick={() => onResolve(null)}>
            {t('notes.keepTheirs')}
          </button>
        </>
      }
    >
      <div className="col" data-testid="note-conflict">
        <p className="small">{t('notes.conflictText', { time: formatDateTime(theirs.updated_at) })}</p>
        <div className="conflict-sides">
          <div>
            <h3 className="small">{t('notes.conflictMine')}</h3>
            <pre className="file-preview-text" dir="auto" data-testid="conflict-mine">
              {mine.text}
            </pre>
          </div>
          <div>
            <h3 className="small">{t('notes.conflictTheirs')}</h3>
            <pre className="file-preview-text" dir="auto" data-testid="conflict-theirs">
              {theirsText}
            </pre>
          </div>
        </div>
      </div>
    </Modal>
  );
}
