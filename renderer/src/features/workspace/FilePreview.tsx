import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { knowledgeApi } from '../../api/knowledge';
import { ErrorNotice, Loading } from '../../components/Feedback';
import { Modal } from '../../components/Modal';
import { useT } from '../../lib/i18n';

/** What retrieval sees of a file in a base: its extracted text, and the chunks it was cut into. */
export function FilePreview({ knowledgeId, fileId, name, onClose }: { knowledgeId: string; fileId: string; name: string; onClose: () => void }) {
  const t = useT();
  const [tab, setTab] = useState<'text' | 'chunks'>('text');
  const preview = useQuery({ queryKey: ['knowledge', knowledgeId, 'preview', fileId], queryFn: () => knowledgeApi.preview(knowledgeId, fileId) });
  const data = preview.data;
  return (
    <Modal title={name} onClose={onClose} wide>
      <div className="col">
        <nav className="tabs" role="tablist" aria-label={name}>
          <button type="button" role="tab" className={`tab${tab === 'text' ? ' active' : ''}`} aria-selected={tab === 'text'} onClick={() => setTab('text')}>
            {t('knowledge.extractedText')}
          </button>
          <button type="button" role="tab" className={`tab${tab === 'chunks' ? ' active' : ''}`} aria-selected={tab === 'chunks'} onClick={() => setTab('chunks')}>
            {t('knowledge.chunks', { count: data?.chunks_total ?? data?.chunks.length ?? 0 })}
          </button>
        </nav>
        {preview.isPending && <Loading />}
        {preview.isError && <ErrorNotice error={preview.error} onRetry={() => void preview.refetch()} />}
        {data && tab === 'text' && (
          <>
            {data.text === null ? (
              <div className="notice error" role="alert">
                {data.text_error}
              </div>
            ) : (
              <pre className="file-preview-text" data-testid="extracted-text">
                {data.text}
              </pre>
            )}
            {data.truncated && <p className="muted small">{t('knowledge.truncated')}</p>}
          </>
        )}
        {data && tab === 'chunks' && (
          <ol className="file-preview-chunks" data-testid="chunks">
            {data.chunks.length === 0 && <li className="muted small">{t('knowledge.noChunks', { status: data.status })}</li>}
            {data.chunks.map((c) => (
              <li key={c.seq}>
                <div className="tiny muted">
                  #{c.seq + 1} · {t('knowledge.chars', { count: c.text.length })}
                  {typeof c.meta.page === 'number' ? ` · ${t('knowledge.page', { page: c.meta.page })}` : ''}
                </div>
                <pre className="file-preview-text">{c.text}</pre>
              </li>
            ))}
            {data.chunks_total > data.chunks.length && <li className="muted small">{t('knowledge.chunksCut', { shown: data.chunks.length, count: data.chunks_total })}</li>}
          </ol>
        )}
      </div>
    </Modal>
  );
}
