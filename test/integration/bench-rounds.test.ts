import { describe, expect, it } from 'vitest';
import { medianIndex, summarize, verdict, type RoundRow } from '../../bench/lib/rounds';

const row = (value: number, target?: RoundRow['target']): RoundRow => ({
  name: 'added p99',
  cells: [`direct ${value}`, `via ${value}`, `+${value} ms`],
  value,
  show: (n) => `+${n} ms`,
  targetText: '≤ +100 ms',
  ...(target ? { target } : {}),
});

describe('bench rounds: how stable each row is', () => {
  it('says whether every round, no round or only some rounds meet a target', () => {
    expect(verdict([40, 60, 90], { max: 100 })).toBe('holds');
    expect(verdict([140, 160, 190], { max: 100 })).toBe('misses');
    expect(verdict([40, 160, 90], { max: 100 })).toBe('crosses');
    expect(verdict([0.95, 0.67], { min: 0.9 })).toBe('crosses');
    expect(verdict([Number.NaN, 50], { max: 100 })).toBe('crosses');
    expect(verdict([1, 2], undefined)).toBe('');
  });

  it('prints the median round\'s cells, the spread across rounds and a flag when the spread crosses the target', () => {
    const rounds = [[row(169, { max: 100 }), row(2)], [row(68, { max: 100 }), row(3)], [row(80, { max: 100 }), row(1)]];
    expect(summarize(rounds)).toEqual([
      ['added p99', 'direct 80', 'via 80', '+80 ms', '+68 ms – +169 ms', '≤ +100 ms', '⚠ crosses'],
      ['added p99', 'direct 2', 'via 2', '+2 ms', '+1 ms – +3 ms', '≤ +100 ms', ''],
    ]);
    expect(summarize([[row(50, { max: 100 })]])[0]).toEqual(['added p99', 'direct 50', 'via 50', '+50 ms', '+50 ms', '≤ +100 ms', '✓']);
    expect(summarize([[row(150, { max: 100 })], [row(120, { max: 100 })]])[0]!.at(-1)).toBe('✗ misses');
  });

  it('takes the lower middle of an even count and sorts failed rounds last', () => {
    expect(medianIndex([3, 1, 2])).toBe(2);
    expect(medianIndex([4, 1, 3, 2])).toBe(3);
    expect(medianIndex([Number.NaN, 5, 1])).toBe(1);
  });
});
