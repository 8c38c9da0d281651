import { Icon } from '../../../components/Icon';
import { formatBytes, formatPercent } from '../../../lib/format';
import { useT } from '../../../lib/i18n';
import type { FileRef } from '../store';
import type { Upload } from './use-uploads';

/** The chips above the message box: files being attached (with progress) and knowledge turned on. */
export function Attachments({ uploads, knowledge, onRemoveUpload, onRemoveKnowledge }: { uploads: Upload[]; knowledge: FileRef[]; onRemoveUpload: (u: Upload) => void; onRemoveKnowledge: (k: FileRef) => void }) {
  const t = useT();
  if (uploads.length === 0 && knowledge.length === 0) return null;
  return (
    <div className="composer-files">
      {uploads.map((u) => (
        <span key={u.key} className={`file-chip${u.error ? ' failed' : ''}`} title={u.error ?? `${u.name} · ${formatBytes(u.size)}`} data-testid="attachment" data-file-id={u.id}>
          {u.preview && !u.error && <img className="chip-thumb" src={u.preview} alt="" data-testid="attachment-thumb" />}
          {!u.id && !u.error ? <span className="spinner" aria-hidden="true" style={{ width: 14, height: 14 }} /> : !u.preview && <Icon name={u.error ? 'alert' : 'file'} size={14} />}
          <span className="truncate">{u.name}</span>
          {!u.id && !u.error && (
            <span className="chip-progress" role="progressbar" aria-label={u.name} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(u.progress * 100)}>
              {formatPercent(u.progress)}
            </span>
          )}
          <button type="button" className="chip-x" onClick={() => onRemoveUpload(u)} aria-label={t('chat.removeAttachment', { name: u.name })}>
            <Icon name="x" size={12} />
          </button>
        </span>
      ))}
      {knowledge.map((k) => (
        <span key={k.id} className="file-chip knowledge">
          <Icon name={k.type === 'note' ? 'pencil' : 'book'} size={14} />
          <span className="truncate">{k.name}</span>
          <button type="button" className="chip-x" onClick={() => onRemoveKnowledge(k)} aria-label={t('chat.removeAttachment', { name: k.name })}>
            <Icon name="x" size={12} />
          </button>
        </span>
      ))}
    </div>
  );
}
