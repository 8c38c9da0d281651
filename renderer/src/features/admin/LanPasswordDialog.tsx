import { useState, type FormEvent } from 'react';
import { authApi } from '../../api/auth';
import { messageOf } from '../../components/Feedback';
import { TextField } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { useT } from '../../lib/i18n';
import { newPasswordError, passwordHint } from '../../lib/password';

/**
 * Asked when an admin without a password (the desktop owner) turns LAN sharing on: other
 * devices sign in with a password, so one is set first; then `onDone` turns sharing on.
 */
export function LanPasswordDialog({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const t = useT();
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (next !== again) return setError(t('lan.passwordsDiffer'));
    const problem = newPasswordError(next);
    if (problem) return setError(problem);
    setBusy(true);
    try {
      // An account without a password sets its first one with an empty current password.
      await authApi.updatePassword({ password: '', new_password: next });
      onDone();
    } catch (err) {
      setError(messageOf(err));
      setBusy(false);
    }
  };
  return (
    <Modal title={t('lan.passwordTitle')} onClose={onClose}>
      <form className="col" onSubmit={submit} data-testid="lan-password-dialog">
        <p className="section-desc">{t('lan.passwordDesc')}</p>
        <TextField label={t('lan.passwordNew')} hint={passwordHint()} type="password" autoComplete="new-password" value={next} onChange={(e) => setNext(e.target.value)} required />
        <TextField label={t('lan.passwordConfirm')} type="password" autoComplete="new-password" value={again} onChange={(e) => setAgain(e.target.value)} required />
        {error && (
          <div className="notice error" role="alert">
            {error}
          </div>
        )}
        <div className="row end">
          <button type="button" className="btn" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="btn primary" disabled={busy || !next || !again}>
            {busy && <span className="spinner" aria-hidden="true" />}
            {t('lan.passwordSubmit')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
