import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { modelsApi } from '../../api/models';
import { messageOf } from '../../components/Feedback';
import { Switch } from '../../components/Field';
import { Icon } from '../../components/Icon';
import { ItemActions, ResourceCard, ResourceIcon, ResourceList, ResourceTitle } from '../../components/ResourceList';
import { useToast } from '../../components/Toasts';
import { useT } from '../../lib/i18n';

/** Custom models the user can see, with an active switch, edit and delete. */
export function ModelsList() {
  const t = useT();
  const qc = useQueryClient();
  const toast = useToast();
  const models = useQuery({ queryKey: ['models', 'list'], queryFn: modelsApi.list });
  const available = useQuery({ queryKey: ['models', 'available'], queryFn: modelsApi.available });
  // A model shared with you whose base model you may not use (or whose owner lost it) is listed
  // here but cannot be chatted with: it is missing from the chat's model list.
  const chattable = new Set((available.data ?? []).map((m) => m.id));
  const unusable = (id: string, active: boolean) => active && available.isSuccess && !chattable.has(id);
  const refresh = () => qc.invalidateQueries({ queryKey: ['models'] });
  const toggle = useMutation({ mutationFn: modelsApi.toggle, onSuccess: () => void refresh(), onError: (e) => toast(messageOf(e), 'error') });
  const remove = useMutation({ mutationFn: modelsApi.remove, onSuccess: () => void refresh(), onError: (e) => toast(messageOf(e), 'error') });
  const custom = (models.data ?? []).filter((m) => m.base_model_id);
  const editPath = (id: string) => `/workspace/models/edit?id=${encodeURIComponent(id)}`;
  return (
    <section>
      <div className="row mb">
        <div className="grow" />
        <Link to="/workspace/models/new" className="btn primary">
          <Icon name="plus" size={16} />
          {t('workspace.newModel')}
        </Link>
      </div>
      <ResourceList query={models} items={custom} empty={t('workspace.noModels')} itemKey={(m) => m.id}>
        {(m) => (
          <ResourceCard
            icon={<ResourceIcon name="cube" />}
            title={<ResourceTitle to={editPath(m.id)}>{m.name}</ResourceTitle>}
            meta={
              <>
                <div className="tiny muted truncate">{m.base_model_id}</div>
                {unusable(m.id, m.is_active) && <div className="tiny muted">{t('workspace.baseModelNotYours')}</div>}
              </>
            }
            description={m.meta?.description || m.params?.system || ''}
            footer={
              <div className="row">
                <Switch label={t('workspace.active')} checked={m.is_active} onChange={() => toggle.mutate(m.id)} />
                <div className="grow" />
                <ItemActions name={m.name} editTo={editPath(m.id)} onDelete={() => remove.mutate(m.id)} confirmDelete={t('workspace.deleteModelConfirm', { name: m.name })} />
              </div>
            }
          />
        )}
      </ResourceList>
    </section>
  );
}
