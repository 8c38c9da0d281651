import { describe, expect, it } from 'vitest';
import { ftsQuery, matchedPassage, parseSearchText } from './search-text';

describe('search text', () => {
  it('reads tag: and date filters out of the words', () => {
    expect(parseSearchText('Budget tag:Work after:2026-01-01 before:2026-02-01')).toEqual({
      words: ['budget'],
      tags: ['work'],
      after: Date.UTC(2026, 0, 1) / 1000,
      before: Date.UTC(2026, 1, 1) / 1000,
    });
    expect(parseSearchText('on:2026-03-04')).toMatchObject({ after: Date.UTC(2026, 2, 4) / 1000, before: Date.UTC(2026, 2, 5) / 1000 });
    expect(() => parseSearchText('after:2026-02-30')).toThrow(/YYYY-MM-DD/);
  });

  it('quotes words for FTS so operators typed by people are plain text', () => {
    expect(ftsQuery(['near(a', 'b)', 'or'])).toEqual({ exact: '"near a" AND "b" AND "or"', prefix: '"near a" AND "b" AND "or"*' });
    expect(ftsQuery(['++'])).toBeNull();
  });

  it('highlights word starts with accents and case ignored, in the original text', () => {
    const { text, highlights } = matchedPassage('The CRÈME brûlée was a crème', ['creme', 'brul']);
    expect(highlights.map(([a, b]) => text.slice(a, b))).toEqual(['CRÈME', 'brûlée', 'crème']);
    expect(matchedPassage('scream', ['cream']).highlights).toEqual([]);
  });
});
