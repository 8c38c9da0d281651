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
