import { describe, expect, it } from 'vitest';
import { decodeLiterals, isCopyableLiteral } from './json-literals';

describe('JSON string literals carried as they came', () => {
  it('copies literals whose every escape is JSON', () => {
    for (const literal of ['"tok "', '""', '"say \\"hi\\"\\n\\t\\\\"', '"caf\\u00e9 \\/ \\u00E9"', '"\\ud83d"', '"é 😀 \u2028"', '"\\b\\f\\r"']) {
      expect(isCopyableLiteral(literal)).toBe(true);
      // What is copied must parse as one string.
      expect(typeof JSON.parse(literal)).toBe('string');
    }
  });

  it('refuses what would break or change the frame it is copied into', () => {
    for (const literal of [
      'tok',
      '"tok',
      '"a" "b"',
      '"a"b"',
      '"tab\there"',
      '"line\nbreak"',
      '"bad \\x escape"',
      '"short \\u12"',
      '"\\u12G4"',
      // The closing quote escaped: not a whole literal.
      '"ends in \\"',
      '"\\u00e"',
      '"',
    ]) {
      expect(isCopyableLiteral(literal), literal).toBe(false);
    }
  });

  it('decodes runs of literals into the text they carry, surrogate pairs split between two literals whole', () => {
    expect(decodeLiterals(['"Hel"', '"lo\\n"', '"\\ud83d"', '"\\ude00"', '" caf\\u00e9"'])).toBe('Hello\n😀 café');
    expect(decodeLiterals([])).toBe('');
  });
});
