import { currentLanguage } from './i18n';

/**
 * Numbers, sizes, dates, relative times and durations in the UI's language, through Intl.
 * Every function reads the language at call time; components re-render on a language change
 * through `useT()`, so what they format follows.
 */

const formatters = new Map<string, unknown>();

/** One Intl formatter per kind, language and options, made on first use. */
function cached<F>(kind: string, options: object, make: (language: string) => F): F {
  const language = currentLanguage();
  const key = `${kind}|${language}|${JSON.stringify(options)}`;
  let formatter = formatters.get(key) as F | undefined;
  if (!formatter) {
    formatter = make(language);
    formatters.set(key, formatter);
  }
  return formatter;
}

const number = (options: Intl.NumberFormatOptions = {}) => cached('number', options, (l) => new Intl.NumberFormat(l, options));
const dateTime = (options: Intl.DateTimeFormatOptions) => cached('date', options, (l) => new Intl.DateTimeFormat(l, options));

/** What a missing value shows as. */
export const NONE = '—';

/** A number with the language's digits grouping and decimal sign (1,234.5 / 1.234,5). */
export function formatNumber(value: number | null | undefined, options?: Intl.NumberFormatOptions): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NONE;
  return number(options).format(value);
}

/** A fraction 0..1 as a percentage (42 %, %42, 42٪). */
export function formatPercent(fraction: number, digits = 0): string {
  return number({ style: 'percent', maximumFractionDigits: digits }).format(fraction);
}

const BYTE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/** A size in bytes as people read it (512 KB, 1.4 GB), in steps of 1024. */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return NONE;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return number({ style: 'unit', unit: BYTE_UNITS[unit], unitDisplay: 'short', maximumFractionDigits: value >= 10 || unit === 0 ? 0 : 1 }).format(value);
}

/** An epoch-seconds timestamp as a short local date and time. */
export function formatDateTime(epochSeconds: number | null | undefined): string {
  if (!epochSeconds) return NONE;
  return dateTime({ dateStyle: 'medium', timeStyle: 'short' }).format(epochSeconds * 1000);
}

/** An epoch-seconds timestamp as the time alone when it is today, else as date and time (message lists). */
export function formatMoment(epochSeconds: number, now: Date = new Date()): string {
  const at = new Date(epochSeconds * 1000);
  if (at.toDateString() !== now.toDateString()) return formatDateTime(epochSeconds);
  return dateTime({ timeStyle: 'short' }).format(at);
}

/** An epoch-seconds timestamp as a local date. */
export function formatDate(epochSeconds: number | null | undefined): string {
  if (!epochSeconds) return NONE;
  return dateTime({ dateStyle: 'medium' }).format(epochSeconds * 1000);
}

/** An ISO day (`2026-05-31`, as the usage table sends) as a local date, read in UTC. */
export function formatDay(isoDay: string): string {
  const at = Date.parse(`${isoDay}T00:00:00Z`);
  if (!Number.isFinite(at)) return isoDay;
  return dateTime({ dateStyle: 'medium', timeZone: 'UTC' }).format(at);
}

const RELATIVE_STEPS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.35],
  ['month', 12],
  ['year', Infinity],
];

/** How long ago (or ahead) an epoch-seconds timestamp is: "3 minutes ago", "vor 3 Minuten", "yesterday". */
export function formatRelative(epochSeconds: number, now: number = Date.now()): string {
  let value = epochSeconds - now / 1000;
  for (const [unit, size] of RELATIVE_STEPS) {
    if (Math.abs(value) < size) return cached('relative', {}, (l) => new Intl.RelativeTimeFormat(l, { numeric: 'auto' })).format(Math.round(value), unit);
    value /= size;
  }
  return NONE;
}

/** A duration in milliseconds as its two largest units ("1 h 5 min", "12 s", "850 ms"). */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return NONE;
  if (ms < 1000) return number({ style: 'unit', unit: 'millisecond', unitDisplay: 'narrow' }).format(Math.round(ms));
  const parts: Array<[number, 'hour' | 'minute' | 'second']> = [];
  let seconds = Math.round(ms / 1000);
  const hours = Math.floor(seconds / 3600);
  seconds -= hours * 3600;
  const minutes = Math.floor(seconds / 60);
  seconds -= minutes * 60;
  if (hours) parts.push([hours, 'hour']);
  if (minutes) parts.push([minutes, 'minute']);
  if (seconds || parts.length === 0) parts.push([seconds, 'second']);
  const shown = parts.slice(0, 2).map(([value, unit]) => number({ style: 'unit', unit, unitDisplay: 'short' }).format(value));
  return cached('list', { type: 'unit' }, (l) => new Intl.ListFormat(l, { style: 'narrow', type: 'unit' })).format(shown);
}

/** A language's name in the UI's language ("de" → "German", "Deutsch", "allemand"). */
export function formatLanguageName(code: string): string {
  try {
    return cached('language', {}, (l) => new Intl.DisplayNames(l, { type: 'language' })).of(code) ?? code;
  } catch {
    return code;
  }
}

/** Items joined as the language lists them ("a, b and c", "a, b und c"). */
export function formatList(items: string[]): string {
  return cached('list', { type: 'conjunction' }, (l) => new Intl.ListFormat(l, { style: 'long', type: 'conjunction' })).format(items);
}
