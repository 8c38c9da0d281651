/**
 * How stable each row of a benchmark is: the same rows measured in several rounds, each row
 * reported with its median round's cells, the spread of its value across rounds (min–max), and
 * whether that spread crosses the row's target, so a reader can tell a row that holds in every
 * round from one that holds only in some.
 */

/** A row's target on its value: at most `max`, or at least `min`. */
export type Target = { max: number } | { min: number };

/** One row as one round measured it. */
export interface RoundRow {
  name: string;
  /** Shown cells (direct, via Parley, …) of this round. */
  cells: string[];
  /** The value the spread and the target are about (ms added, a ratio). */
  value: number;
  /** Formats a value of this row for the spread column. */
  show: (value: number) => string;
  target?: Target;
  /** The target as printed ('≤ +15 ms'), or what the row is ('floor (HTTP hop)'). */
  targetText: string;
}

/** Whether a value meets a target. */
export function meets(value: number, target: Target): boolean {
  if (!Number.isFinite(value)) return false;
  return 'max' in target ? value <= target.max : value >= target.min;
}

/**
 * The verdict over every round: `holds` (every round meets the target), `misses` (none does), or
 * `crosses` (the spread crosses the target: some rounds meet it, some do not). Empty without a target.
 */
export function verdict(values: number[], target: Target | undefined): '' | 'holds' | 'misses' | 'crosses' {
  if (!target) return '';
  const met = values.filter((v) => meets(v, target)).length;
  if (met === values.length) return 'holds';
  return met === 0 ? 'misses' : 'crosses';
}

/** The index of the median of `values` (the lower middle for an even count; non-finite values sort last). */
export function medianIndex(values: number[]): number {
  const order = values.map((v, i) => [Number.isFinite(v) ? v : Number.POSITIVE_INFINITY, i] as const).sort((a, b) => a[0] - b[0]);
  return order[Math.floor((order.length - 1) / 2)]![1];
}

/**
 * The summary rows of several rounds (every round has the same rows in the same order): the
 * name, the median round's cells, `min–max` of the value across rounds, the target and the
 * verdict. With one round the spread is that round's value.
 */
export function summarize(rounds: RoundRow[][]): string[][] {
  const first = rounds[0] ?? [];
  return first.map((row, index) => {
    const measured = rounds.map((round) => round[index]!);
    const values = measured.map((r) => r.value);
    const middle = measured[medianIndex(values)]!;
    const finite = values.filter(Number.isFinite);
    const spread = finite.length === 0 ? 'n/a' : finite.length === 1 ? row.show(finite[0]!) : `${row.show(Math.min(...finite))} – ${row.show(Math.max(...finite))}`;
    const judged = verdict(values, row.target);
    const flag = judged === 'crosses' ? '⚠ crosses' : judged === 'misses' ? '✗ misses' : judged === 'holds' ? '✓' : '';
    return [row.name, ...middle.cells, spread, row.targetText, flag];
  });
}
