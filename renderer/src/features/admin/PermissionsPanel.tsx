import type { Permissions } from '../../../../server/contracts/permissions';
import { usersApi } from '../../api/users';
import { ErrorNotice, Loading } from '../../components/Feedback';
import { useConfigForm } from '../../hooks/use-config-form';
import { useT } from '../../lib/i18n';
import { PermissionsEditor } from './PermissionsEditor';
import { SaveBar } from './SaveBar';

/** The system default permissions. */
export function PermissionsPanel() {
  const t = useT();
  const form = useConfigForm<Permissions>('default-permissions', usersApi.defaultPermissions, usersApi.setDefaultPermissions);
  return (
    <section className="card">
      <div className="card-title">
        <h2>{t('admin.permissions')}</h2>
      </div>
      <p className="section-desc">{t('admin.permissionsDesc')}</p>
      {form.query.isPending && <Loading />}
      {form.query.isError && <ErrorNotice error={form.query.error} onRetry={() => void form.query.refetch()} />}
      {form.draft && (
        <>
          <PermissionsEditor value={form.draft} onChange={(next) => form.setDraft(next as Permissions)} />
          <SaveBar onSave={() => void form.submit()} saving={form.saving} dirty={form.dirty} error={form.error} />
        </>
      )}
    </section>
  );
}
