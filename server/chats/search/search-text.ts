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
 * The words as FTS5 queries: each word's letters and digits as a quoted phrase, all required.
 * `exact` needs whole words; `prefix` also lets the last word match as a prefix (search as you type).
 * Null when no word has a letter or digit.
 */
export function ftsQuery(words: readonly string[]): { exact: string; prefix: string } | null {
  const terms = words.map((w) => w.split(/[^\p{L}\p{N}]+/u).filter(Boolean).join(' ')).filter((t) => t.length > 0);
  if (terms.length === 0) return null;
  const quoted = terms.map((t) => `"${t}"`);
  return { exact: quoted.join(' AND '), prefix: [...quoted.slice(0, -1), `${quoted.at(-1)!}*`].join(' AND ') };
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

/** Lower-case, accent-free form of a text, with the index in the original of each of its characters. */
function fold(text: string): { folded: string; at: number[] } {
  let folded = '';
  const at: number[] = [];
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    if (cp < 0x80) {
      // ASCII has no accents to strip: only case (the common case, and much cheaper than normalize).
      folded += cp >= 0x41 && cp <= 0x5a ? String.fromCharCode(cp + 0x20) : text[i]!;
      at.push(i);
      i += 1;
      continue;
    }
    const ch = String.fromCodePoint(cp);
    for (const f of ch.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()) {
      folded += f;
      at.push(i);
    }
    i += ch.length;
  }
  at.push(text.length);
  return { folded, at };
}

/**
 * A passage of `content` around the first place where a term starts a word (accents and case
 * ignored, as FTS matched it), with every such match highlighted up to the end of its word.
 */
export function matchedPassage(content: string, terms: readonly string[], radius = 90): { text: string; highlights: Array<[number, number]> } {
  const { folded, at } = fold(content);
  const ranges: Array<[number, number]> = [];
  for (const term of terms.map((t) => fold(t).folded).filter(Boolean)) {
    for (let i = folded.indexOf(term); i >= 0; i = folded.indexOf(term, i + 1)) {
      if (i > 0 && /[\p{L}\p{N}]/u.test(folded[i - 1]!)) continue;
      let end = i + term.length;
      while (end < folded.length && /[\p{L}\p{N}]/u.test(folded[end]!)) end += 1;
      ranges.push([at[i]!, at[end]!]);
    }
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const first = ranges[0]?.[0] ?? 0;
  const start = first > radius ? content.lastIndexOf(' ', first - radius) + 1 || first - radius : 0;
  const endCut = Math.min(content.length, Math.max(first, start) + radius * 2);
  const prefix = start > 0 ? '…' : '';
  const raw = content.slice(start, endCut);
  const text = `${prefix}${raw}${endCut < content.length ? '…' : ''}`;
  const highlights: Array<[number, number]> = [];
  for (const [a, b] of ranges) {
    if (a < start || a >= endCut) continue;
    const s = a - start + prefix.length;
    const e = Math.min(b, endCut) - start + prefix.length;
    const last = highlights[highlights.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else highlights.push([s, e]);
  }
  return { text, highlights };
}

/** The terms of words as FTS reads them (letters and digits only). */
export function ftsTerms(words: readonly string[]): string[] {
  return words.flatMap((w) => w.split(/[^\p{L}\p{N}]+/u).filter(Boolean));
}
