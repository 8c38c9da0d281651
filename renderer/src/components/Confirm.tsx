import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from 'react';
import { useT } from '../lib/i18n';
import { Modal } from './Modal';

interface Pending {
  message: string;
  action: string;
  danger: boolean;
}

const ConfirmContext = createContext<(message: string, opts?: { action?: string; danger?: boolean }) => Promise<boolean>>(async () => false);

/** Asks yes/no questions in an accessible dialog instead of window.confirm. */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const t = useT();
  const [pending, setPending] = useState<Pending | null>(null);
  const resolver = useRef<(ok: boolean) => void>(() => undefined);
  const ask = useCallback((message: string, opts: { action?: string; danger?: boolean } = {}) => {
    setPending({ message, action: opts.action ?? t('common.confirm'), danger: opts.danger ?? true });
    return new Promise<boolean>((resolve) => {
      resolver.current = resolve;
    });
  }, [t]);
  const finish = (ok: boolean) => {
    setPending(null);
    resolver.current(ok);
  };
  return (
    <ConfirmContext.Provider value={ask}>
      {children}
      {pending && (
        <Modal
          title={t('common.areYouSure')}
          onClose={() => finish(false)}
          footer={
            <>
              <button type="button" className="btn" onClick={() => finish(false)}>
                {t('common.cancel')}
              </button>
              <button type="button" className={`btn ${pending.danger ? 'primary' : 'primary'}`} style={pending.danger ? { background: 'var(--danger)', borderColor: 'var(--danger)', color: 'white' } : undefined} onClick={() => finish(true)} autoFocus>
                {pending.action}
              </button>
            </>
          }
        >
          <p style={{ margin: 0 }}>{pending.message}</p>
        </Modal>
      )}
    </ConfirmContext.Provider>
  );
}

/** `await confirm(message)` resolves true when the user agrees. */
export function useConfirm() {
  return useContext(ConfirmContext);
}
