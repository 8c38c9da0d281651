import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import type { NoteAssistAction } from '../../../../server/contracts/notes';
import { notesApi } from '../../api/notes';
import { ErrorNotice, Loading } from '../../components/Feedback';
import { Modal } from '../../components/Modal';
import { useT } from '../../lib/i18n';

const Markdown = lazy(() => import('../../components/markdown/Markdown'));

/**
 * The task model's summary or improved version of the note, shown before anything changes: a
 * summary can go on top of the note, an improved text can replace it.
 */
export function AssistDialog({ action, text, onApply, onClose }: { action: NoteAssistAction; text: string; onApply: (next: string) => void; onClose: () => void }) {
  const t = useT();
  const result = useQuery({ queryKey: ['note-assist', action, text], queryFn: () => notesApi.assist(action, text), staleTime: Infinity, retry: false });
  const answer = result.data?.content ?? '';
  return (
    <Modal
      title={action === 'summarize' ? t('notes.summaryTitle') : t('notes.improveTitle')}
      onClose={onClose}
      wide
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="button" className="btn primary" disabled={!answer} onClick={() => onApply(action === 'summarize' ? `${answer}\n\n---\n\n${text}` : answer)}>
            {action === 'summarize' ? t('notes.addSummary') : t('notes.replaceText')}
          </button>
        </>
      }
    >
      {result.isPending && <Loading label={t('notes.working')} />}
      {result.isError && <ErrorNotice error={result.error} onRetry={() => void result.refetch()} />}
      {answer && (
        <div className="note-preview bordered">
          <Suspense fallback={<pre>{answer}</pre>}>
            <Markdown text={answer} />
          </Suspense>
        </div>
      )}
    </Modal>
  );
}
