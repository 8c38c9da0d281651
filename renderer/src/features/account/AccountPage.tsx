import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { authApi } from '../../api/auth';
import { ApiError } from '../../api/http';
import { usersApi } from '../../api/users';
import { useSession, useUser } from '../../app/session';
import { useSettings } from '../../app/settings';
import { Avatar } from '../../components/Avatar';
import { useConfirm } from '../../components/Confirm';
import { ErrorNotice, messageOf } from '../../components/Feedback';
import { Switch, TextField } from '../../components/Field';
import { FormFooter } from '../../components/FormFooter';
import { Icon } from '../../components/Icon';
import { ThemeSwitch } from '../../components/ThemeSwitch';
import { LanguagePicker } from '../../components/LanguagePicker';
import { newPasswordError, passwordHint } from '../../lib/password';
import { useToast } from '../../components/Toasts';
import { useFormSubmit } from '../../hooks/use-form-submit';
import { copyText } from '../../lib/clipboard';
import { useT } from '../../lib/i18n';
import { VoiceSettings } from './VoiceSettings';
import { ChatDefaultsSettings } from '../chat/ChatDefaultsSettings';
import { PersonalizationSettings } from './PersonalizationSettings';

/** Profile, password, API key and interface settings of the signed-in user. */
export default function AccountPage() {
  const t = useT();
  return (
    <div className="page">
      <div className="page-head">
        <h1>{t('account.title')}</h1>
      </div>
      <Profile />
      <Interface />
      <ChatDefaultsSettings />
      <PersonalizationSettings />
      <VoiceSettings />
      <ApiKey />
      <Password />
    </div>
  );
}

function Profile() {
  const t = useT();
  const user = useUser();
  const { refresh } = useSession();
  const toast = useToast();
  const [name, setName] = useState(user.name);
  const [image, setImage] = useState(user.profile_image_url);
  const file = useRef<HTMLInputElement>(null);

  const { busy, error, onSubmit: save } = useFormSubmit(async () => {
    await authApi.updateProfile({ name: name.trim(), profile_image_url: image });
    await refresh();
    toast(t('common.saved'));
  });

  const upload = async (f: File) => {
    try {
      const res = await usersApi.uploadProfileImage(f);
      setImage(res.url);
    } catch (err) {
      toast(t('account.imageUploadFailed', { detail: messageOf(err) }), 'error');
    }
  };

  return (
    <section className="card" aria-labelledby="profile-h">
      <div className="card-title">
        <h2 id="profile-h">{t('account.profile')}</h2>
      </div>
      <p className="section-desc">{t('account.profileDesc')}</p>
      <form onSubmit={save} className="col">
        <div className="row gap-l wrap">
          <Avatar name={name || user.name} src={image} large />
          <div className="col" style={{ gap: 4 }}>
            <input ref={file} type="file" accept="image/*" hidden onChange={(e) => e.target.files?.[0] && void upload(e.target.files[0])} />
            <button type="button" className="btn small" onClick={() => file.current?.click()}>
              <Icon name="upload" size={14} />
              {t('account.changeImage')}
            </button>
            <span className="tiny muted">{user.email}</span>
          </div>
        </div>
        <div className="form-grid">
          <TextField label={t('common.name')} value={name} onChange={(e) => setName(e.target.value)} required autoComplete="name" />
          <TextField label={t('common.email')} value={user.email} readOnly disabled />
        </div>
        <FormFooter error={error} busy={busy} disabled={!name.trim()} />
      </form>
    </section>
  );
}

function Interface() {
  const t = useT();
  const { settings, update } = useSettings();
  return (
    <section className="card" aria-labelledby="iface-h">
      <div className="card-title">
        <h2 id="iface-h">{t('account.interface')}</h2>
      </div>
      <p className="section-desc">{t('account.interfaceDesc')}</p>
      <div className="col">
        <div className="field">
          <span className="field-label">{t('nav.theme')}</span>
          <div style={{ maxWidth: 360 }}>
            <ThemeSwitch />
          </div>
        </div>
        <div style={{ maxWidth: 360 }}>
          <LanguagePicker onChosen={(language) => void update({ language })} />
        </div>
        <Switch label={t('account.collapseSidebar')} checked={settings.sidebar?.collapsed === true} onChange={(v) => void update({ sidebar: { ...settings.sidebar, collapsed: v } })} />
      </div>
    </section>
  );
}

function ApiKey() {
  const t = useT();
  const qc = useQueryClient();
  const toast = useToast();
  const confirm = useConfirm();
  const [shown, setShown] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const key = useQuery({
    queryKey: ['api-key'],
    queryFn: async () => {
      try {
        return (await authApi.getApiKey()).api_key;
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }
    },
  });
  const run = async (fn: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
      await qc.invalidateQueries({ queryKey: ['api-key'] });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const create = () =>
    run(async () => {
      const res = await authApi.createApiKey();
      qc.setQueryData(['api-key'], res.api_key);
      setShown(true);
    });
  const disabled = error instanceof ApiError && error.status === 403;
  const value = key.data;
  return (
    <section className="card" aria-labelledby="key-h">
      <div className="card-title">
        <h2 id="key-h">{t('account.apiKey')}</h2>
      </div>
      <p className="section-desc">{t('account.apiKeyDesc')}</p>
      {key.isError && <ErrorNotice error={key.error} onRetry={() => void key.refetch()} />}
      {key.isSuccess && !value && (
        <div className="row wrap">
          <span className="muted">{t('account.apiKeyNone')}</span>
          <div className="grow" />
          <button type="button" className="btn primary" onClick={() => void create()} disabled={busy}>
            <Icon name="key" size={15} />
            {t('account.apiKeyCreate')}
          </button>
        </div>
      )}
      {value && (
        <div className="col">
          <div className="row">
            <input className="input mono grow" readOnly aria-label={t('account.apiKey')} value={shown ? value : `${value.slice(0, 6)}${'•'.repeat(24)}${value.slice(-4)}`} data-testid="api-key" />
            <button type="button" className="icon-btn" onClick={() => setShown((s) => !s)} aria-label={shown ? t('account.apiKeyHide') : t('account.apiKeyShow')}>
              <Icon name={shown ? 'eyeOff' : 'eye'} />
            </button>
            <button
              type="button"
              className="btn"
              onClick={async () => {
                if (await copyText(value)) toast(t('common.copied'));
              }}
            >
              <Icon name="copy" size={15} />
              {t('common.copy')}
            </button>
          </div>
          <div className="row end">
            <button type="button" className="btn" onClick={() => void create()} disabled={busy}>
              <Icon name="refresh" size={15} />
              {t('account.apiKeyRegenerate')}
            </button>
            <button
              type="button"
              className="btn danger"
              disabled={busy}
              onClick={async () => {
                if (await confirm(t('account.apiKeyRevokeConfirm'), { action: t('account.apiKeyRevoke') })) void run(() => authApi.deleteApiKey().then(() => qc.setQueryData(['api-key'], null)));
              }}
            >
              {t('account.apiKeyRevoke')}
            </button>
          </div>
        </div>
      )}
      {error !== null && <div className="mt">{disabled ? <div className="notice warning">{t('account.apiKeyDisabled')}</div> : <ErrorNotice error={error} />}</div>}
    </section>
  );
}

function Password() {
  const t = useT();
  const toast = useToast();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const { busy, error, onSubmit: submit } = useFormSubmit(async () => {
    if (next !== again) throw new Error(t('account.passwordsDiffer'));
    const problem = newPasswordError(next);
    if (problem) throw new Error(problem);
    await authApi.updatePassword({ password: current, new_password: next });
    setCurrent('');
    setNext('');
    setAgain('');
    toast(t('account.passwordChanged'));
  });
  return (
    <section className="card" aria-labelledby="pw-h">
      <div className="card-title">
        <h2 id="pw-h">{t('account.password')}</h2>
      </div>
      <p className="section-desc">{t('account.passwordDesc')}</p>
      <form className="col" onSubmit={submit}>
        <div className="form-grid">
          {/* Empty for an account that has no password yet (the desktop owner sets a first one). */}
          <TextField label={t('account.currentPassword')} hint={t('account.currentPasswordHint')} type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
          <TextField label={t('account.newPassword')} hint={passwordHint()} type="password" autoComplete="new-password" value={next} onChange={(e) => setNext(e.target.value)} required />
          <TextField label={t('account.confirmPassword')} type="password" autoComplete="new-password" value={again} onChange={(e) => setAgain(e.target.value)} required />
        </div>
        <FormFooter error={error} busy={busy} disabled={!next} submitLabel={t('account.changePassword')} />
      </form>
    </section>
  );
}
