/** The `p` quantile (0..1) of `values`. */
export const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

/** A number with `digits` decimals ('n/a' when it is not finite). */
export const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

/** Prints a titled table with padded columns. */
export function table(title: string, header: string[], rows: Array<Array<string | number>>): void {
  console.log(`\n${title}`);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells: Array<string | number>) => cells.map((c, i) => String(c).padEnd(widths[i]!)).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}

/** A table's rows. */
export type Rows = Array<Array<string | number>>;
