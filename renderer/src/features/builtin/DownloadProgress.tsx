import type { BuiltinModel } from '../../api/builtin';
import { formatBytes, fractionOf } from './format';

/** A download's bar and numbers (`role="progressbar"` for assistive tech and tests). */
export function DownloadProgress({ model }: { model: BuiltinModel }) {
  const fraction = fractionOf(model);
  return (
    <div className="col" style={{ gap: 4, minWidth: 160 }}>
      <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(fraction * 100)} aria-label={`Downloading ${model.name}`}>
        <span style={{ width: `${fraction * 100}%` }} />
      </div>
      <span className="muted small">
        {formatBytes(model.downloaded)} / {model.size ? formatBytes(model.size) : '?'}
        {model.status === 'paused' ? ' — paused' : ''}
      </span>
    </div>
  );
}
