import type { ReactNode } from 'react';
import { useT } from '../lib/i18n';

/** The end of a form: its error, then Cancel (when the form can be left) and the submit button. */
export function FormFooter({ error, busy, disabled, onCancel, submitLabel }: { error: string | null; busy: boolean; disabled?: boolean; onCancel?: () => void; submitLabel?: ReactNode }) {
  const t = useT();
  return (
    <>
      {error && (
        <div className="notice error" role="alert">
          {error}
        </div>
      )}
      <div className="row end">
        {onCancel && (
          <button type="button" className="btn" onClick={onCancel}>
            {t('common.cancel')}
          </button>
        )}
        <button type="submit" className="btn primary" disabled={busy || disabled}>
          {submitLabel ?? t('common.save')}
        </button>
      </div>
    </>
  );
}
