import type { StreamStatus } from '../../api/completions';
import type { t as translate } from '../../lib/i18n';

const list = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** An image being made: its progress, done or failed. */
function imageText(status: StreamStatus, t: typeof translate): string {
  if (status.error) return t('chat.statusImageFailed');
  if (status.done) return t('chat.statusImageDone');
  return typeof status.progress === 'number' ? t('chat.statusImageProgress', { progress: status.progress }) : t('chat.statusImage');
}

/** A web search step, worded from its queries and pages. */
function webText(status: StreamStatus, t: typeof translate): string {
  const queries = list(status.queries);
  const count = typeof status.count === 'number' ? status.count : list(status.urls).length;
  if (status.error) return t('chat.webFailed', { reason: status.description ?? '' });
  if (!status.done && queries.length > 0) return t('chat.webSearching', { queries: queries.map((q) => `“${q}”`).join(', ') });
  if (!status.done) return t('chat.webReading', { count });
  if (count === 0) return t('chat.webNoResults');
  return t('chat.webRead', { count });
}

/**
 * A status line in the reader's language where the UI knows its action (web search, image
 * generation, the code interpreter); other steps show the service's description (in English).
 */
export function statusText(status: StreamStatus, t: typeof translate): string {
  if (status.action === 'web_search') return webText(status, t);
  if (status.action === 'image_generation') return imageText(status, t);
  if (status.action === 'code_interpreter') return status.done ? t('chat.statusCodeDone') : t('chat.statusCodeRunning');
  return status.description ?? '';
}
