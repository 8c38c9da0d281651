import { t, type StringKey } from './i18n';

/** The sidebar's date buckets, newest first. */
export type DateBucket = 'today' | 'yesterday' | 'week' | 'month' | 'older';

const DAY = 86_400_000;

/** Which bucket an epoch-seconds timestamp falls in, relative to `now`. */
export function dateBucket(epochSeconds: number, now: Date = new Date()): DateBucket {
  const startOfToday = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  const ms = epochSeconds * 1000;
  if (ms >= startOfToday) return 'today';
  if (ms >= startOfToday - DAY) return 'yesterday';
  if (ms >= startOfToday - 7 * DAY) return 'week';
  if (ms >= startOfToday - 30 * DAY) return 'month';
  return 'older';
}

const BUCKET_LABEL: Record<DateBucket, StringKey> = {
  today: 'date.today',
  yesterday: 'date.yesterday',
  week: 'date.week',
  month: 'date.month',
  older: 'date.older',
};

/** The visible label of a bucket. */
export function bucketLabel(bucket: DateBucket): string {
  return t(BUCKET_LABEL[bucket]);
}

/** A short local date and time for an epoch-seconds timestamp. */
export function formatDateTime(epochSeconds: number | null | undefined): string {
  if (!epochSeconds) return '—';
  return new Date(epochSeconds * 1000).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A short local date. */
export function formatDate(epochSeconds: number | null | undefined): string {
  if (!epochSeconds) return '—';
  return new Date(epochSeconds * 1000).toLocaleDateString(undefined, { dateStyle: 'medium' });
}

/** Human file size. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
