import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { builtinApi, type RecommendedModel } from '../../api/builtin';
import { ErrorNotice, Loading, messageOf } from '../../components/Feedback';
import { DownloadProgress } from './DownloadProgress';
import { formatBytes } from '../../lib/format';
import { RichText } from '../../lib/i18n/RichText';
import { useT } from '../../lib/i18n';
import { LIBRARY_KEY, useBuiltinModels, useRecommended } from './use-builtin-models';

/**
 * "Download a recommended model", self-contained for the first-run setup screen: lists the
 * curated chat models with size and whether their RAM need fits this machine, downloads the one
 * picked with a progress bar, and calls `onDone(modelId)` when it is ready (to open a first chat).
 * "Chat with it" on a model already installed calls `onChat` (default: `onDone`).
 * `onSkip` (optional) shows a "Not now" button. Needs an admin session.
 */
export function RecommendedModelSetup({ onDone, onChat, onSkip }: { onDone: (modelId: string) => void; onChat?: (modelId: string) => void; onSkip?: () => void }) {
  const t = useT();
  const qc = useQueryClient();
  const recommended = useRecommended();
  const library = useBuiltinModels();
  const [downloadingId, setDownloadingId] = useState<string | null>(null);
  const start = useMutation({
    mutationFn: (model: RecommendedModel) => builtinApi.download({ url: model.url, name: model.name, kind: model.kind, ...(model.sha256 ? { sha256: model.sha256 } : {}) }),
    onSuccess: (entry) => {
      setDownloadingId(entry.id);
      void qc.invalidateQueries({ queryKey: LIBRARY_KEY });
    },
  });
  const current = library.data?.find((m) => m.id === downloadingId);
  const ready = library.data?.find((m) => m.kind === 'chat' && m.status === 'ready');

  useEffect(() => {
    if (current?.status === 'ready') onDone(current.id);
  }, [current?.status, current?.id, onDone]);

  if (typeof navigator !== 'undefined' && !navigator.onLine) {
    return <p className="muted">{t('builtin.offline')}</p>;
  }
  if (recommended.isLoading) return <Loading />;
  if (recommended.isError) return <ErrorNotice error={recommended.error} onRetry={() => void recommended.refetch()} />;
  const chatModels = (recommended.data ?? []).filter((m) => m.kind === 'chat');

  return (
    <div className="col" style={{ gap: 12 }}>
      {ready && !current && (
        <div className="row" style={{ justifyContent: 'space-between' }}>
          <span>
            <RichText k="builtin.installed" vars={{ name: ready.name }} tags={{ strong: <strong /> }} />
          </span>
          <button type="button" className="btn primary" onClick={() => (onChat ?? onDone)(ready.id)}>
            {t('builtin.chatWithIt')}
          </button>
        </div>
      )}
      {current ? (
        <div className="col" style={{ gap: 8 }} aria-live="polite">
          <strong>{current.name}</strong>
          {current.status === 'failed' ? (
            <span className="danger-text small">{current.error}</span>
          ) : (
            <>
              <DownloadProgress model={current} />
              <div className="row">
                {current.status === 'paused' ? (
                  <button type="button" className="btn small" onClick={() => void builtinApi.resume(current.id).then(() => qc.invalidateQueries({ queryKey: LIBRARY_KEY }))}>
                    {t('builtin.resume')}
                  </button>
                ) : (
                  <button type="button" className="btn small" onClick={() => void builtinApi.pause(current.id).then(() => qc.invalidateQueries({ queryKey: LIBRARY_KEY }))}>
                    {t('builtin.pause')}
                  </button>
                )}
                <button
                  type="button"
                  className="btn small"
                  onClick={() =>
                    void builtinApi.cancel(current.id).then(() => {
                      setDownloadingId(null);
                      return qc.invalidateQueries({ queryKey: LIBRARY_KEY });
                    })
                  }
                >
                  {t('common.cancel')}
                </button>
              </div>
            </>
          )}
        </div>
      ) : (
        <ul className="builtin-recommended">
          {chatModels.map((model) => (
            <li key={model.url} className="builtin-recommended-item">
              <div className="col grow" style={{ gap: 2 }}>
                <strong>{model.name}</strong>
                <span className="muted small">{model.description}</span>
                <span className="small">
                  {t('builtin.sizeAndRam', { size: formatBytes(model.size), ram: formatBytes(model.ram) })} ·{' '}
                  {model.fits === false ? <span className="danger-text">{t('builtin.tooBig')}</span> : <span>{t('builtin.fits')}</span>} · {model.license}
                </span>
              </div>
              <button type="button" className="btn primary small" disabled={start.isPending || model.fits === false} onClick={() => start.mutate(model)}>
                {t('builtin.download')}
              </button>
            </li>
          ))}
        </ul>
      )}
      {start.isError && <span className="danger-text small">{messageOf(start.error)}</span>}
      {onSkip && (
        <div>
          <button type="button" className="btn" onClick={onSkip}>
            {t('builtin.notNow')}
          </button>
        </div>
      )}
    </div>
  );
}
