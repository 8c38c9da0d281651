import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { Role } from '../../../../server/contracts/auth';
import type { UserListItem } from '../../../../server/contracts/users';
import { authApi } from '../../api/auth';
import { groupsApi } from '../../api/groups';
import { usersApi } from '../../api/users';
import { useUser } from '../../app/session';
import { Avatar } from '../../components/Avatar';
import { ItemActions } from '../../components/ResourceList';
import { ErrorNotice, Loading, messageOf } from '../../components/Feedback';
import { SelectField, TextField } from '../../components/Field';
import { FormFooter } from '../../components/FormFooter';
import { Icon } from '../../components/Icon';
import { Modal } from '../../components/Modal';
import { useToast } from '../../components/Toasts';
import { formatDate, formatDateTime } from '../../lib/format';
import { useFormSubmit } from '../../hooks/use-form-submit';
import { useT } from '../../lib/i18n';
import { newPasswordError, passwordHint } from '../../lib/password';
import { usePendingSignups } from '../../hooks/use-pending-signups';

const PAGE_SIZE = 30;
const ROLES: Role[] = ['pending', 'user', 'admin'];

/** The paged user table: search, group filter, role change, approve, add, edit, delete. */
export function UsersPanel() {
  const t = useT();
  const me = useUser();
  const qc = useQueryClient();
  const toast = useToast();
  const [query, setQuery] = useState('');
  const [debounced, setDebounced] = useState('');
  const [groupId, setGroupId] = useState('');
  const [onlyPending, setOnlyPending] = useState(false);
  const pending = usePendingSignups(true);
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<UserListItem | null>(null);

  useEffect(() => {
    const id = setTimeout(() => (setDebounced(query), setPage(1)), 250);
    return () => clearTimeout(id);
  }, [query]);

  const users = useQuery({
    queryKey: ['users', debounced, groupId, onlyPending, page],
    queryFn: () => usersApi.list({ query: debounced || undefined, page, group_id: groupId || undefined, role: onlyPending ? 'pending' : undefined }),
    placeholderData: keepPreviousData,
  });
  const groups = useQuery({ queryKey: ['groups'], queryFn: groupsApi.list });
  const active = useQuery({ queryKey: ['users', 'active'], queryFn: usersApi.active, refetchInterval: 15_000 });
  const online = new Set(active.data?.user_ids ?? []);

  const refresh = () => qc.invalidateQueries({ queryKey: ['users'] });
  const setRole = useMutation({
    mutationFn: ({ id, role }: { id: string; role: Role }) => usersApi.update(id, { role }),
    onSuccess: () => void refresh(),
    onError: (e) => toast(messageOf(e), 'error'),
  });
  const remove = useMutation({ mutationFn: (id: string) => usersApi.remove(id), onSuccess: () => void refresh(), onError: (e) => toast(messageOf(e), 'error') });

  const count = users.data?.count ?? 0;
  const pages = Math.max(1, Math.ceil(count / PAGE_SIZE));

  return (
    <section>
      {(pending > 0 || onlyPending) && (
        <div className="notice warning row mb" role="status" data-testid="pending-signups-notice">
          <span className="grow">{pending > 0 ? t('admin.pendingNotice', { count: pending }) : t('admin.userCount', { count })}</span>
          <button type="button" className="btn small" aria-pressed={onlyPending} onClick={() => (setOnlyPending(!onlyPending), setPage(1))}>
            {onlyPending ? t('admin.showAll') : t('admin.showPending')}
          </button>
        </div>
      )}
      <div className="row wrap mb">
        {/* 300px before it grows: on a phone the search takes its own line, wide enough for its placeholder in every language. */}
        <div className="grow" style={{ flex: '1 1 300px', maxWidth: 360 }}>
          <input className="input" type="search" placeholder={t('admin.searchUsers')} aria-label={t('admin.searchUsers')} value={query} onChange={(e) => setQuery(e.target.value)} />
        </div>
        {groups.data && groups.data.length > 0 && (
          <select className="select" style={{ width: 200 }} aria-label={t('admin.groups')} value={groupId} onChange={(e) => (setGroupId(e.target.value), setPage(1))}>
            <option value="">{t('admin.allGroups')}</option>
            {groups.data.map((g) => (
              <option key={g.id} value={g.id}>
                {g.name}
              </option>
            ))}
          </select>
        )}
        <div className="grow" />
        <span className="muted small">{t('admin.userCount', { count })}</span>
        <button type="button" className="btn primary" onClick={() => setAdding(true)}>
          <Icon name="plus" size={16} />
          {t('admin.addUser')}
        </button>
      </div>
      {users.isPending && <Loading />}
      {users.isError && <ErrorNotice error={users.error} onRetry={() => void users.refetch()} />}
      {users.data && (
        <div className="table-wrap">
          <table className="table cards-on-phone">
            <thead>
              <tr>
                <th>{t('common.name')}</th>
                <th>{t('common.role')}</th>
                <th className="hide-phone">{t('admin.lastActive')}</th>
                <th className="hide-phone">{t('common.created')}</th>
                <th style={{ textAlign: 'end' }}>{t('common.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {users.data.users.map((u) => (
                <tr key={u.id} data-testid={`user-row-${u.email}`}>
                  <td>
                    <div className="row" style={{ minWidth: 0 }}>
                      <Avatar name={u.name} src={u.profile_image_url} />
                      <div style={{ minWidth: 0 }}>
                        <div className="row gap-s" style={{ fontWeight: 600 }}>
                          <span className="truncate">{u.name}</span>
                          {online.has(u.id) && <span className="badge success">{t('admin.active')}</span>}
                        </div>
                        <div className="tiny muted truncate">{u.email}</div>
                      </div>
                    </div>
                  </td>
                  <td>
                    <select className="select compact" aria-label={t('admin.roleOf', { name: u.name })} value={u.role} disabled={u.id === me.id} onChange={(e) => setRole.mutate({ id: u.id, role: e.target.value as Role })}>
                      {ROLES.map((r) => (
                        <option key={r} value={r}>
                          {t(`common.role.${r}`)}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td className="hide-phone small muted">{formatDateTime(u.last_active_at)}</td>
                  <td className="hide-phone small muted">{formatDate(u.created_at)}</td>
                  <td className="actions-cell">
                    <div className="row end gap-s">
                      {u.role === 'pending' && (
                        <button type="button" className="btn small primary" onClick={() => setRole.mutate({ id: u.id, role: 'user' })}>
                          {t('admin.approve')}
                        </button>
                      )}
                      <ItemActions
                        name={u.name}
                        onEdit={() => setEditing(u)}
                        editLabel={t('admin.editUserNamed', { name: u.name })}
                        onDelete={() => remove.mutate(u.id)}
                        confirmDelete={t('admin.deleteUserConfirm', { name: u.name, email: u.email })}
                        deleteDisabled={u.id === me.id}
                      />
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pages > 1 && (
        <div className="row end mt">
          <button type="button" className="btn small" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
            {t('common.previous')}
          </button>
          <span className="small muted">{t('admin.page', { page, pages })}</span>
          <button type="button" className="btn small" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
            {t('common.next')}
          </button>
        </div>
      )}
      {adding && <AddUser onClose={() => setAdding(false)} onDone={() => (setAdding(false), void refresh())} />}
      {editing && <EditUser user={editing} onClose={() => setEditing(null)} onDone={() => (setEditing(null), void refresh())} />}
    </section>
  );
}

function AddUser({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const t = useT();
  const [form, setForm] = useState({ name: '', email: '', password: '', role: 'user' as Role });
  const { busy, error, onSubmit } = useFormSubmit(async () => {
    const problem = newPasswordError(form.password);
    if (problem) throw new Error(problem);
    await authApi.addUser(form);
    onDone();
  });
  return (
    <Modal title={t('admin.addUser')} onClose={onClose}>
      <form className="col" onSubmit={onSubmit}>
        <TextField label={t('common.name')} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} required />
        <TextField label={t('common.email')} type="email" value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} required />
        <TextField label={t('common.password')} hint={passwordHint()} type="password" autoComplete="new-password" value={form.password} onChange={(e) => setForm({ ...form, password: e.target.value })} required />
        <SelectField label={t('common.role')} value={form.role} onChange={(e) => setForm({ ...form, role: e.target.value as Role })}>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {t(`common.role.${r}`)}
            </option>
          ))}
        </SelectField>
        <FormFooter error={error} busy={busy} onCancel={onClose} submitLabel={t('common.add')} />
      </form>
    </Modal>
  );
}

function EditUser({ user, onClose, onDone }: { user: UserListItem; onClose: () => void; onDone: () => void }) {
  const t = useT();
  const [form, setForm] = useState({ name: user.name, email: user.email, role: user.role, password: '' });
  const { busy, error, onSubmit } = useFormSubmit(async () => {
    const problem = form.password ? newPasswordError(form.password) : null;
    if (problem) throw new Error(problem);
    await usersApi.update(user.id, { name: form.name, email: form.email, role: form.role, ...(form.password ? { password: form.password } : {}) });
    onDone();
  });
  return (
    <Modal title={t('admin.editUser')} onClose={onClose}>
      <form className="col" onSubmit={onSubmit}>
        <TextField label={t('common.name')} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} required />
        <TextField label={t('common.email')} type="email" value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} required />
        <SelectField label={t('common.role')} value={form.role} onChange={(e) => setForm({ ...form, role: e.target.value as Role })}>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {t(`common.role.${r}`)}
            </option>
          ))}
        </SelectField>
        <TextField label={t('admin.newPasswordOptional')} hint={passwordHint()} type="password" autoComplete="new-password" value={form.password} onChange={(e) => setForm({ ...form, password: e.target.value })} />
        <FormFooter error={error} busy={busy} onCancel={onClose} />
      </form>
    </Modal>
  );
}
