import { describe, expect, it } from 'vitest';
import { parseDuration } from './duration';

describe('parseDuration', () => {
  it('reads each unit into seconds', () => {
    expect(parseDuration('45s')).toBe(45);
    expect(parseDuration('30m')).toBe(1800);
    expect(parseDuration('2h')).toBe(7200);
    expect(parseDuration('7d')).toBe(604_800);
    expect(parseDuration('2w')).toBe(1_209_600);
  });

  it('reads -1 as never', () => {
    expect(parseDuration('-1')).toBeNull();
  });

  it('rejects anything else', () => {
    for (const bad of ['', '7', 'd', '7y', '0d', '-2d', '1.5h', '7 d', 'abc']) {
      expect(parseDuration(bad), bad).toBeUndefined();
    }
  });
});
