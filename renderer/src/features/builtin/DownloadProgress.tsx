import type { BuiltinModel } from '../../api/builtin';
import { formatBytes } from '../../lib/format';
import { useT } from '../../lib/i18n';
import { fractionOf } from './download';

/** A download's bar and numbers (`role="progressbar"` for assistive tech and tests). */
export function DownloadProgress({ model }: { model: BuiltinModel }) {
  const t = useT();
  const fraction = fractionOf(model);
  return (
    <div className="col" style={{ gap: 4, minWidth: 160 }}>
      <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(fraction * 100)} aria-label={t('builtin.downloading', { name: model.name })}>
        <span style={{ width: `${fraction * 100}%` }} />
      </div>
      <span className="muted small">
        {t(model.status === 'paused' ? 'builtin.progressPaused' : 'builtin.progress', { done: formatBytes(model.downloaded), total: model.size ? formatBytes(model.size) : '?' })}
      </span>
    </div>
  );
}
