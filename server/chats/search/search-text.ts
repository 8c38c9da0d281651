import { badRequest } from '../../platform/http/errors';

/** A search box's text, split into words and filters. */
export interface ParsedSearch {
  /** Words to find in titles and messages (lower-cased, in order). */
  words: string[];
  /** `tag:name` filters (lower-cased); a chat must carry every one. */
  tags: string[];
  /** Epoch seconds: last activity at or after. */
  after: number | null;
  /** Epoch seconds: last activity before. */
  before: number | null;
}

const DAY = 86_400;

function day(value: string, key: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : Number.NaN;
  if (!m || Number.isNaN(ms) || new Date(ms).getUTCDate() !== Number(m[3])) {
    throw badRequest(`'${key}:' needs a date as YYYY-MM-DD, not '${value}'`, 'BAD_SEARCH_DATE');
  }
  return ms / 1000;
}

/**
 * Reads `tag:name`, `before:YYYY-MM-DD`, `after:YYYY-MM-DD` and `on:YYYY-MM-DD` (UTC days) out of
 * the text; everything else is words. `before:` excludes its day, `after:` includes it.
 */
export function parseSearchText(text: string): ParsedSearch {
  const out: ParsedSearch = { words: [], tags: [], after: null, before: null };
  for (const token of text.trim().split(/\s+/).filter(Boolean)) {
    const m = /^(tag|before|after|on):(.*)$/i.exec(token);
    if (!m) {
      out.words.push(token.toLowerCase());
      continue;
    }
    const key = m[1]!.toLowerCase();
    const value = m[2]!;
    if (value === '') continue;
    if (key === 'tag') out.tags.push(value.toLowerCase());
    else if (key === 'after') out.after = Math.max(out.after ?? 0, day(value, key));
    else if (key === 'before') out.before = Math.min(out.before ?? Number.MAX_SAFE_INTEGER, day(value, key));
    else {
      const start = day(value, key);
      out.after = Math.max(out.after ?? 0, start);
      out.before = Math.min(out.before ?? Number.MAX_SAFE_INTEGER, start + DAY);
    }
  }
  return out;
}

/**
 * The words as an FTS5 query: each word's letters and digits as a quoted phrase, all required;
 * the last word also matches as a prefix (search as you type). Null when no word has a letter or digit.
 */
export function ftsQuery(words: readonly string[]): string | null {
  const terms = words.map((w) => w.split(/[^\p{L}\p{N}]+/u).filter(Boolean).join(' ')).filter((t) => t.length > 0);
  if (terms.length === 0) return null;
  return terms.map((t, i) => (i === terms.length - 1 ? `"${t}"*` : `"${t}"`)).join(' AND ');
}

/** Splits a snippet marked with \u0001…\u0002 into plain text and highlight ranges. */
export function readMarkedSnippet(marked: string): { text: string; highlights: Array<[number, number]> } {
  let text = '';
  const highlights: Array<[number, number]> = [];
  let start = -1;
  for (const ch of marked) {
    if (ch === '\u0001') start = text.length;
    else if (ch === '\u0002') {
      if (start >= 0 && text.length > start) highlights.push([start, text.length]);
      start = -1;
    } else text += ch;
  }
  return { text, highlights };
}

/** Highlights every case-insensitive occurrence of the words in a text (for title or fallback matches). */
export function highlightWords(text: string, words: readonly string[]): Array<[number, number]> {
  const lower = text.toLowerCase();
  const ranges: Array<[number, number]> = [];
  for (const word of words) {
    if (!word) continue;
    for (let at = lower.indexOf(word); at >= 0; at = lower.indexOf(word, at + word.length)) ranges.push([at, at + word.length]);
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  return merged;
}
