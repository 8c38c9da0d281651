import type { StreamStatus } from '../../api/completions';
import type { t as translate } from '../../lib/i18n';

const list = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/**
 * A status line in the reader's language: web search steps are worded from their fields
 * (queries, pages), other steps show the service's description.
 */
export function statusText(status: StreamStatus, t: typeof translate): string {
  if (status.action !== 'web_search') return status.description ?? '';
  const queries = list(status.queries);
  const count = typeof status.count === 'number' ? status.count : list(status.urls).length;
  if (status.error) return t('chat.webFailed', { reason: status.description ?? '' });
  if (!status.done && queries.length > 0) return t('chat.webSearching', { queries: queries.map((q) => `“${q}”`).join(', ') });
  if (!status.done) return t('chat.webReading', { count });
  if (count === 0) return t('chat.webNoResults');
  return t('chat.webRead', { count });
}
