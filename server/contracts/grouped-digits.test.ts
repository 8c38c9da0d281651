import { describe, expect, it } from 'vitest';
import { groupedDigits } from './grouped-digits';

describe('grouped digits', () => {
  it('writes numbers as English does, in groups of three', () => {
    for (const n of [0, 7, 999, 1000, 32768, 200000, 1234567, -45000, 12345.5]) expect(groupedDigits(n)).toBe(n.toLocaleString('en', { maximumFractionDigits: 20 }));
  });
});
