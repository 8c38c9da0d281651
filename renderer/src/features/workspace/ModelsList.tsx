import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { modelsApi } from '../../api/models';
import { useConfirm } from '../../components/Confirm';
import { ErrorNotice, Loading, messageOf } from '../../components/Feedback';
import { Switch } from '../../components/Field';
import { Icon } from '../../components/Icon';
import { useToast } from '../../components/Toasts';
import { useT } from '../../lib/i18n';

/** Custom models the user can see, with an active switch, edit and delete. */
export function ModelsList() {
  const t = useT();
  const qc = useQueryClient();
  const toast = useToast();
  const confirm = useConfirm();
  const models = useQuery({ queryKey: ['models', 'list'], queryFn: modelsApi.list });
  const refresh = () => qc.invalidateQueries({ queryKey: ['models'] });
  const toggle = useMutation({ mutationFn: modelsApi.toggle, onSuccess: () => void refresh(), onError: (e) => toast(messageOf(e), 'error') });
  const remove = useMutation({ mutationFn: modelsApi.remove, onSuccess: () => void refresh(), onError: (e) => toast(messageOf(e), 'error') });
  const custom = (models.data ?? []).filter((m) => m.base_model_id);
  return (
    <section>
      <div className="row mb">
        <div className="grow" />
        <Link to="/workspace/models/new" className="btn primary">
          <Icon name="plus" size={16} />
          {t('workspace.newModel')}
        </Link>
      </div>
      {models.isPending && <Loading />}
      {models.isError && <ErrorNotice error={models.error} onRetry={() => void models.refetch()} />}
      {models.isSuccess && custom.length === 0 && <div className="empty card">{t('workspace.noModels')}</div>}
      <div className="cards">
        {custom.map((m) => (
          <article key={m.id} className="item-card">
            <div className="row">
              <span className="avatar" style={{ background: 'var(--accent-soft)', color: 'var(--accent)' }}>
                <Icon name="cube" size={16} />
              </span>
              <div className="grow" style={{ minWidth: 0 }}>
                <Link to={`/workspace/models/edit?id=${encodeURIComponent(m.id)}`} className="title truncate" style={{ display: 'block' }}>
                  {m.name}
                </Link>
                <div className="tiny muted truncate">{m.base_model_id}</div>
              </div>
            </div>
            <div className="desc">{m.meta?.description || m.params?.system || '—'}</div>
            <div className="row">
              <Switch label={t('workspace.active')} checked={m.is_active} onChange={() => toggle.mutate(m.id)} />
              <div className="grow" />
              <Link to={`/workspace/models/edit?id=${encodeURIComponent(m.id)}`} className="icon-btn small" aria-label={`${t('common.edit')}: ${m.name}`}>
                <Icon name="pencil" size={15} />
              </Link>
              <button
                type="button"
                className="icon-btn small"
                aria-label={`${t('common.delete')}: ${m.name}`}
                onClick={async () => {
                  if (await confirm(t('workspace.deleteModelConfirm', { name: m.name }), { action: t('common.delete') })) remove.mutate(m.id);
                }}
              >
                <Icon name="trash" size={15} />
              </button>
            </div>
          </article>
        ))}
      </div>
    </section>
  );
}
