import { ApiError } from '../api/http';
import { hasText, t, useT } from '../lib/i18n';
import { Icon } from './Icon';

/**
 * The message to show for any thrown value, in the UI's language: errors whose code has words in
 * the `errors` catalog (`errors.EMAIL_TAKEN`) show those; others show the service's own detail.
 */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) {
    const key = error.code ? `errors.${error.code}` : '';
    if (key && hasText(key)) return t(key, { count: error.retryAfter ?? 0 });
    return error.detail;
  }
  if (error instanceof Error) return error.message;
  return String(error);
}

/** True when the service does not offer this endpoint yet (another part still being built). */
export function isMissing(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 405 || error.status === 501);
}

/** An inline error with an optional retry button. */
export function ErrorNotice({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const t = useT();
  return (
    <div className="notice error" role="alert">
      <Icon name="alert" />
      <div className="grow">{isMissing(error) ? t('common.notAvailable') : messageOf(error)}</div>
      {onRetry && (
        <button type="button" className="btn small" onClick={onRetry}>
          {t('app.retry')}
        </button>
      )}
    </div>
  );
}

/** A centered spinner with a label for assistive technology. */
export function Loading({ label }: { label?: string }) {
  const t = useT();
  return (
    <div className="row" style={{ justifyContent: 'center', padding: 32 }} role="status">
      <span className="spinner" aria-hidden="true" />
      <span className="muted small">{label ?? t('common.loading')}</span>
    </div>
  );
}
