import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { offlineApi } from '../../api/offline';
import { ErrorNotice, Loading } from '../../components/Feedback';
import { Switch } from '../../components/Field';
import { useT } from '../../lib/i18n';

const KEY = ['config', 'offline'];

/** "Offline": the one switch that turns every connection outside this computer off. */
export function OfflinePanel() {
  const t = useT();
  const qc = useQueryClient();
  const status = useQuery({ queryKey: KEY, queryFn: offlineApi.status });
  const update = useMutation({ mutationFn: offlineApi.update, onSuccess: (next) => qc.setQueryData(KEY, next) });
  const s = status.data;
  return (
    <section className="card" data-testid="offline-panel">
      <div className="card-title">
        <h2>{t('admin.offline.title')}</h2>
        {s && <span className={`badge ${s.offline ? 'success' : ''}`}>{s.offline ? t('admin.offline.on') : t('admin.offline.off')}</span>}
      </div>
      <p className="section-desc">{t('admin.offline.desc')}</p>
      {status.isPending && <Loading />}
      {status.isError && <ErrorNotice error={status.error} onRetry={() => void status.refetch()} />}
      {s && (
        <div className="col">
          <Switch
            label={t('admin.offline.toggle')}
            checked={update.isPending ? update.variables.enabled : s.offline}
            disabled={update.isPending || s.forced_by_env}
            hint={s.forced_by_env ? t('admin.offline.forced') : undefined}
            onChange={(enabled) => update.mutate({ enabled })}
          />
          {update.isError && <ErrorNotice error={update.error} />}
          {s.allowed_networks.length > 0 && <p className="muted small">{t('admin.offline.allowed', { networks: s.allowed_networks.join(', ') })}</p>}
        </div>
      )}
    </section>
  );
}
