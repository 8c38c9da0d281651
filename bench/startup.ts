/**
 * Start-up benchmark: time from spawn to the first 200 on /health, and idle RSS, for Parley
 * (fresh data dir with every migration, and an existing one) against a bare Express app
 * started the same way in the same run. Run with `npm run bench:startup`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median, rssMb, startChild } from './lib/process';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const root = path.resolve(import.meta.dirname, '..');
// BENCH_CLI: another build of the service (e.g. a before/after comparison from a copy).
const cli = process.env.BENCH_CLI ? path.resolve(process.env.BENCH_CLI) : path.join(root, 'dist', 'server', 'cli.js');
const control = path.join(root, 'bench', 'lib', 'bare-express.mjs');
const env = { PARLEY_LOG_LEVEL: 'warn', PARLEY_SECRET_STORE: 'file' };

async function measure(args: string[], idleMs = 1500): Promise<{ startMs: number; rss: number }> {
  const started = await startChild(args, env);
  await new Promise((r) => setTimeout(r, idleMs));
  const rss = rssMb(started.child.pid as number);
  await started.stop();
  return { startMs: started.startMs, rss };
}

const controlRuns: Array<{ startMs: number; rss: number }> = [];
const freshRuns: Array<{ startMs: number; rss: number }> = [];
const existingRuns: Array<{ startMs: number; rss: number }> = [];
const existingDir = mkdtempSync(path.join(os.tmpdir(), 'parley-bench-existing-'));
await measure([cli, '--port', '0', '--data-dir', existingDir], 0);

for (let i = 0; i < RUNS; i += 1) {
  controlRuns.push(await measure([control]));
  const fresh = mkdtempSync(path.join(os.tmpdir(), 'parley-bench-fresh-'));
  freshRuns.push(await measure([cli, '--port', '0', '--data-dir', fresh]));
  rmSync(fresh, { recursive: true, force: true });
  existingRuns.push(await measure([cli, '--port', '0', '--data-dir', existingDir]));
}
rmSync(existingDir, { recursive: true, force: true });

const c = { start: median(controlRuns.map((r) => r.startMs)), rss: median(controlRuns.map((r) => r.rss)) };
const f = { start: median(freshRuns.map((r) => r.startMs)), rss: median(freshRuns.map((r) => r.rss)) };
const e = { start: median(existingRuns.map((r) => r.startMs)), rss: median(existingRuns.map((r) => r.rss)) };
const ratio = (value: number, base: number) => value / base;

/**
 * The budgets of issue 37 (docs/performance.md, "Start-up"), each a ratio against the bare Express
 * control measured in this same run (and one absolute ceiling, idle RSS): exceeding one fails the run.
 */
const STARTUP_BUDGETS = [
  { name: 'start, existing data dir', value: () => ratio(e.start, c.start), limit: 3, unit: '× bare' },
  { name: 'start, fresh data dir', value: () => ratio(f.start, c.start), limit: 4, unit: '× bare' },
  { name: 'idle RSS, existing data dir', value: () => e.rss, limit: 100, unit: 'MB' },
  { name: 'idle RSS / bare', value: () => ratio(e.rss, c.rss), limit: 1.8, unit: '× bare' },
] as const;

const row = (name: string, v: { start: number; rss: number }) =>
  `| ${name.padEnd(28)} | ${v.start.toFixed(0).padStart(7)} ms | ${ratio(v.start, c.start).toFixed(2).padStart(5)}× | ${v.rss.toFixed(1).padStart(6)} MB | ${ratio(v.rss, c.rss).toFixed(2).padStart(5)}× |`;

const load = os.loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`\nStart-up to first 200 on /health, median of ${RUNS} runs (${os.cpus().length} cores, Node ${process.version}, load average ${load})\n`);
console.log('| run                          |   start    | ratio |   RSS     | ratio |');
console.log('|------------------------------|------------|-------|-----------|-------|');
console.log(row('bare Express (control)', c));
console.log(row('Parley, existing data dir', e));
console.log(row('Parley, fresh data dir', f));
console.log('\n| budget                       | measured | limit | |');
console.log('|------------------------------|----------|-------|-|');
let exceeded = 0;
for (const budget of STARTUP_BUDGETS) {
  const value = budget.value();
  const met = value <= budget.limit;
  if (!met) exceeded += 1;
  const shown = budget.unit === 'MB' ? `${value.toFixed(1)} MB` : `${value.toFixed(2)}×`;
  const limit = budget.unit === 'MB' ? `${budget.limit} MB` : `${budget.limit}×`;
  console.log(`| ${budget.name.padEnd(28)} | ${shown.padStart(8)} | ${limit.padStart(5)} | ${met ? 'met' : 'EXCEEDED'} |`);
}
if (exceeded > 0) {
  console.error(`\nbench:startup: ${exceeded} budget(s) exceeded`);
  process.exitCode = 1;
}
