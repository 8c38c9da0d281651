import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { Group } from '../../../../server/contracts/groups';
import type { PartialPermissions } from '../../../../server/contracts/permissions';
import { groupsApi } from '../../api/groups';
import { usersApi } from '../../api/users';
import { ErrorNotice, messageOf } from '../../components/Feedback';
import { TextArea, TextField } from '../../components/Field';
import { FormFooter } from '../../components/FormFooter';
import { Icon } from '../../components/Icon';
import { Modal } from '../../components/Modal';
import { ItemActions, ResourceIcon, ResourceList, ResourceRow } from '../../components/ResourceList';
import { useToast } from '../../components/Toasts';
import { useFormSubmit } from '../../hooks/use-form-submit';
import { useT } from '../../lib/i18n';
import { PermissionsEditor } from './PermissionsEditor';

/** Groups: list, create, edit (name, description, permissions, members), delete. */
export function GroupsPanel() {
  const t = useT();
  const qc = useQueryClient();
  const toast = useToast();
  const groups = useQuery({ queryKey: ['groups'], queryFn: groupsApi.list });
  const [editing, setEditing] = useState<Group | 'new' | null>(null);
  const remove = useMutation({ mutationFn: (id: string) => groupsApi.remove(id), onSuccess: () => void qc.invalidateQueries({ queryKey: ['groups'] }), onError: (e) => toast(messageOf(e), 'error') });
  return (
    <section>
      <div className="row mb">
        <div className="grow" />
        <button type="button" className="btn primary" onClick={() => setEditing('new')}>
          <Icon name="plus" size={16} />
          {t('admin.addGroup')}
        </button>
      </div>
      <ResourceList query={groups} layout="rows" empty={t('admin.noGroups')} itemKey={(g) => g.id}>
        {(g) => (
          <ResourceRow
            icon={<ResourceIcon name="users" />}
            title={g.name}
            subtitle={g.description}
            end={
              <>
                <span className="badge">{t('admin.groupMembersCount', { count: g.user_ids.length })}</span>
                <ItemActions name={g.name} onEdit={() => setEditing(g)} onDelete={() => remove.mutate(g.id)} confirmDelete={t('admin.deleteGroupConfirm', { name: g.name })} />
              </>
            }
          />
        )}
      </ResourceList>
      {editing && <GroupEditor group={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onDone={() => (setEditing(null), void qc.invalidateQueries({ queryKey: ['groups'] }))} />}
    </section>
  );
}

function GroupEditor({ group, onClose, onDone }: { group: Group | null; onClose: () => void; onDone: () => void }) {
  const t = useT();
  const [name, setName] = useState(group?.name ?? '');
  const [description, setDescription] = useState(group?.description ?? '');
  const [permissions, setPermissions] = useState<PartialPermissions>(group?.permissions ?? {});
  const [members, setMembers] = useState<string[]>(group?.user_ids ?? []);
  const [filter, setFilter] = useState('');
  const users = useQuery({ queryKey: ['users', 'all'], queryFn: usersApi.all, enabled: group !== null });
  const shown = useMemo(() => {
    const q = filter.toLowerCase();
    return (users.data?.users ?? []).filter((u) => !q || u.name.toLowerCase().includes(q) || u.email.toLowerCase().includes(q));
  }, [users.data, filter]);

  const { busy, error, onSubmit } = useFormSubmit(async () => {
    if (group) await groupsApi.update(group.id, { name, description, permissions, user_ids: members });
    else await groupsApi.create({ name, description, permissions });
    onDone();
  });
  return (
    <Modal title={group ? group.name : t('admin.addGroup')} onClose={onClose} wide>
      <form className="col" onSubmit={onSubmit}>
        <TextField label={t('common.name')} value={name} onChange={(e) => setName(e.target.value)} required />
        <TextArea label={t('common.description')} value={description} onChange={(e) => setDescription(e.target.value)} rows={2} />
        <div className="field">
          <span className="field-label">{t('admin.groupPermissions')}</span>
          <PermissionsEditor value={permissions} onChange={setPermissions} />
        </div>
        {group && (
          <div className="field">
            <span className="field-label">{t('admin.groupMembers')}</span>
            <input className="input" type="search" placeholder={t('admin.searchUsers')} aria-label={t('admin.searchUsers')} value={filter} onChange={(e) => setFilter(e.target.value)} />
            {users.isError && <ErrorNotice error={users.error} />}
            <div className="list" style={{ maxHeight: 220, overflowY: 'auto' }}>
              {shown.map((u) => (
                <label key={u.id} className="list-item checkbox" style={{ padding: '8px 12px' }}>
                  <input type="checkbox" checked={members.includes(u.id)} onChange={(e) => setMembers((m) => (e.target.checked ? [...m, u.id] : m.filter((x) => x !== u.id)))} />
                  <span className="grow">{u.name}</span>
                  <span className="tiny muted">{u.email}</span>
                </label>
              ))}
            </div>
          </div>
        )}
        <FormFooter error={error} busy={busy} disabled={!name.trim()} onCancel={onClose} submitLabel={group ? t('common.save') : t('common.create')} />
      </form>
    </Modal>
  );
}
