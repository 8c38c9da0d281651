import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { authApi } from '../../api/auth';
import { rememberReturnTo, takeReturnTo } from '../../app/return-to';
import { useSession } from '../../app/session';
import { messageOf } from '../../components/Feedback';
import { TextField } from '../../components/Field';
import { useT } from '../../lib/i18n';
import { newPasswordError, passwordHint } from '../../lib/password';
import { AuthLayout } from './AuthLayout';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Welcome (first run: creates the admin), sign in and sign up. */
export function AuthScreen() {
  const t = useT();
  const { state, accept, reload } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const config = state.status === 'signedOut' ? state.config : null;
  const onboarding = config?.onboarding === true;
  const signupOpen = config ? config.features.enable_signup : true;
  const mode: 'welcome' | 'signin' | 'signup' = onboarding ? 'welcome' : location.pathname === '/signup' && signupOpen ? 'signup' : 'signin';
  const expired = state.status === 'signedOut' && state.notice === 'expired';

  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // A link opened while signed out (a shared chat) is where the person lands after signing in or up.
  useEffect(() => rememberReturnTo(location.pathname + location.search), [location.pathname, location.search]);

  const validate = (): boolean => {
    const next: Record<string, string> = {};
    if (mode !== 'signin' && !name.trim()) next.name = t('auth.nameRequired');
    if (!EMAIL.test(email.trim())) next.email = t('auth.emailInvalid');
    // A new password follows the length rule; signing in takes any, so older accounts keep working.
    const passwordError = !password ? t('auth.passwordRequired') : mode !== 'signin' ? newPasswordError(password) : new TextEncoder().encode(password).length > 72 ? t('auth.passwordTooLong') : null;
    if (passwordError) next.password = passwordError;
    setErrors(next);
    return Object.keys(next).length === 0;
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormError(null);
    if (!validate()) return;
    setBusy(true);
    try {
      const session = mode === 'signin' ? await authApi.signin({ email: email.trim(), password }) : await authApi.signup({ name: name.trim(), email: email.trim(), password });
      accept(session);
      const returnTo = takeReturnTo();
      // The first admin is guided through connecting a provider; everyone else lands where they were going.
      if (mode === 'welcome') navigate('/setup', { replace: true });
      else if (returnTo) navigate(returnTo, { replace: true });
      else if (location.pathname === '/signin' || location.pathname === '/signup') navigate('/', { replace: true });
    } catch (error) {
      setFormError(messageOf(error));
      if (mode === 'welcome') void reload();
    } finally {
      setBusy(false);
    }
  };

  const title = mode === 'welcome' ? t('auth.welcomeTitle') : mode === 'signup' ? t('auth.signUpTitle') : t('auth.signInTitle');
  const body = mode === 'welcome' ? t('auth.welcomeBody') : mode === 'signup' ? t('auth.signUpBody') : t('auth.signInBody');

  return (
    <AuthLayout>
      <h1>{title}</h1>
      <p className="muted">{body}</p>
      {expired && mode === 'signin' && <div className="notice warning mb">{t('auth.sessionExpired')}</div>}
      <form className="col" onSubmit={submit} noValidate aria-label={title}>
        {mode !== 'signin' && <TextField label={t('common.name')} name="name" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} error={errors.name} autoFocus />}
        <TextField label={t('common.email')} name="email" type="email" autoComplete="email" inputMode="email" value={email} onChange={(e) => setEmail(e.target.value)} error={errors.email} autoFocus={mode === 'signin'} />
        <TextField label={t('common.password')} name="password" type="password" autoComplete={mode === 'signin' ? 'current-password' : 'new-password'} value={password} onChange={(e) => setPassword(e.target.value)} error={errors.password} hint={mode === 'signin' ? undefined : passwordHint()} />
        {formError && (
          <div className="notice error" role="alert">
            {formError}
          </div>
        )}
        <button type="submit" className="btn primary block" disabled={busy} style={{ height: 42, marginTop: 4 }}>
          {busy && <span className="spinner" aria-hidden="true" />}
          {mode === 'welcome' ? t('auth.createAdmin') : mode === 'signup' ? t('auth.signUp') : t('auth.signIn')}
        </button>
      </form>
      {mode === 'signin' && (
        <p className="small muted center-text mt">
          {signupOpen ? (
            <>
              {t('auth.noAccount')} <Link to="/signup">{t('auth.signUp')}</Link>
            </>
          ) : (
            t('auth.signupClosed')
          )}
        </p>
      )}
      {mode === 'signup' && (
        <p className="small muted center-text mt">
          {t('auth.haveAccount')} <Link to="/signin">{t('auth.signIn')}</Link>
        </p>
      )}
    </AuthLayout>
  );
}
