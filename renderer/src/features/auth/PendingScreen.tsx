import { useEffect } from 'react';
import { useSession, useUser } from '../../app/session';
import { Icon } from '../../components/Icon';
import { useT } from '../../lib/i18n';
import { AuthLayout } from './AuthLayout';

/** Shown to accounts waiting for an admin's approval; checks again every few seconds. */
export function PendingScreen() {
  const t = useT();
  const user = useUser();
  const { refresh, signOut } = useSession();
  useEffect(() => {
    const timer = setInterval(() => void refresh(), 5000);
    return () => clearInterval(timer);
  }, [refresh]);
  return (
    <AuthLayout>
      <div className="pending-icon" aria-hidden="true" style={{ width: 52, height: 52, borderRadius: 14, background: 'var(--warning-soft)', color: 'var(--warning)', display: 'flex', alignItems: 'center', justifyContent: 'center', marginBottom: 18 }}>
        <Icon name="shield" size={26} />
      </div>
      <h1>{t('auth.pendingTitle')}</h1>
      <p className="muted">{t('auth.pendingBody', { email: user.email })}</p>
      <div className="row mt">
        <button type="button" className="btn primary" onClick={() => void refresh()}>
          <Icon name="refresh" size={16} />
          {t('auth.checkAgain')}
        </button>
        <button type="button" className="btn ghost" onClick={() => void signOut()}>
          {t('auth.signOut')}
        </button>
      </div>
    </AuthLayout>
  );
}
