import { useQueryClient } from '@tanstack/react-query';
import type { AuthConfig } from '../../../../server/contracts/auth';
import { authApi } from '../../api/auth';
import { ErrorNotice, Loading } from '../../components/Feedback';
import { SelectField, Switch, TextField } from '../../components/Field';
import { useConfigForm } from '../../hooks/use-config-form';
import { useT } from '../../lib/i18n';
import { SaveBar } from './SaveBar';

const DURATION = /^(-1|\d{1,9}[smhdw])$/;

/** Sign-up, default role, session lifetime and API keys. */
export function AuthPanel() {
  const t = useT();
  const qc = useQueryClient();
  const form = useConfigForm<AuthConfig>('auth', authApi.getConfig, authApi.setConfig);
  const d = form.draft;
  const jwtError = d && !DURATION.test(d.JWT_EXPIRES_IN.trim()) ? t('admin.jwtExpiresHint') : null;
  return (
    <section className="card">
      <div className="card-title">
        <h2>{t('admin.auth')}</h2>
      </div>
      <p className="section-desc">{t('admin.authDesc')}</p>
      {form.query.isPending && <Loading />}
      {form.query.isError && <ErrorNotice error={form.query.error} onRetry={() => void form.query.refetch()} />}
      {d && (
        <div className="col">
          <Switch label={t('admin.enableSignup')} checked={d.ENABLE_SIGNUP} onChange={(v) => form.set('ENABLE_SIGNUP', v)} />
          <Switch label={t('admin.enableApiKey')} checked={d.ENABLE_API_KEY} onChange={(v) => form.set('ENABLE_API_KEY', v)} />
          <Switch label={t('admin.enableRating')} checked={d.ENABLE_MESSAGE_RATING} onChange={(v) => form.set('ENABLE_MESSAGE_RATING', v)} />
          <Switch label={t('admin.enableNotes')} hint={t('admin.enableNotesHint')} checked={d.ENABLE_NOTES} onChange={(v) => form.set('ENABLE_NOTES', v)} />
          <Switch label={t('admin.showAdminDetails')} checked={d.SHOW_ADMIN_DETAILS} onChange={(v) => form.set('SHOW_ADMIN_DETAILS', v)} />
          <Switch label={t('admin.enableChannels')} hint={t('admin.enableChannelsHint')} checked={d.ENABLE_CHANNELS} onChange={(v) => form.set('ENABLE_CHANNELS', v)} />
          <div className="form-grid">
            <SelectField label={t('admin.defaultRole')} value={d.DEFAULT_USER_ROLE} onChange={(e) => form.set('DEFAULT_USER_ROLE', e.target.value as AuthConfig['DEFAULT_USER_ROLE'])}>
              <option value="pending">{t('common.role.pending')}</option>
              <option value="user">{t('common.role.user')}</option>
              <option value="admin">{t('common.role.admin')}</option>
            </SelectField>
            <TextField label={t('admin.jwtExpires')} value={d.JWT_EXPIRES_IN} onChange={(e) => form.set('JWT_EXPIRES_IN', e.target.value)} hint={t('admin.jwtExpiresHint')} error={jwtError} />
          </div>
          <SaveBar onSave={() => void form.submit().then(() => qc.invalidateQueries({ queryKey: ['channels'] }))} saving={form.saving} dirty={form.dirty && !jwtError} error={form.error} />
        </div>
      )}
    </section>
  );
}
