/**
 * Start-up benchmark: time from spawn to the first 200 on /health, and idle RSS (1.5 s after start, and settled), for Parley
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

interface Run {
  startMs: number;
  readyMs: number;
  rss: number;
}

async function measure(args: string[], idleMs = 1500): Promise<Run> {
  const started = await startChild(args, env);
  await new Promise((r) => setTimeout(r, idleMs));
  const rss = rssMb(started.child.pid as number);
  await started.stop();
  return { startMs: started.startMs, readyMs: started.readyMs, rss };
}

const controlRuns: Run[] = [];
const freshRuns: Run[] = [];
const existingRuns: Run[] = [];
const existingDir = mkdtempSync(path.join(os.tmpdir(), 'parley-bench-existing-'));
await measure([cli, '--port', '0', '--data-dir', existingDir], 0);

for (let i = 0; i < RUNS; i += 1) {
  controlRuns.push(await measure([control]));
  const fresh = mkdtempSync(path.join(os.tmpdir(), 'parley-bench-fresh-'));
  freshRuns.push(await measure([cli, '--port', '0', '--data-dir', fresh]));
  rmSync(fresh, { recursive: true, force: true });
  existingRuns.push(await measure([cli, '--port', '0', '--data-dir', existingDir]));
}

/**
 * Idle memory once settled: V8 grows its young generation while the modules load and gives it back
 * on its own only when the process has been idle a while (its memory reducer, 15–20 s after the
 * start on this machine). The rows above read RSS 1.5 s after the first `/health`; the settled
 * figure is what a person sees the service keep while nobody uses it. Both sides idle side by side
 * (nothing runs, so they do not disturb each other), sampled each second; the figure is the last.
 */
async function settledRss(args: string[][], seconds: number): Promise<number[]> {
  const children = await Promise.all(args.map((a) => startChild(a, env)));
  const last = children.map(() => Number.NaN);
  for (let s = 0; s < seconds; s += 1) {
    await new Promise((r) => setTimeout(r, 1000));
    children.forEach((child, i) => {
      last[i] = rssMb(child.child.pid as number);
    });
  }
  await Promise.all(children.map((child) => child.stop()));
  return last;
}
const SETTLE_SECONDS = Number(process.env.BENCH_SETTLE_SECONDS ?? 30);
const [settledControl, settledExisting] = (await settledRss([[control], [cli, '--port', '0', '--data-dir', existingDir]], SETTLE_SECONDS)) as [number, number];
rmSync(existingDir, { recursive: true, force: true });

const summary = (runs: Run[]) => ({ start: median(runs.map((r) => r.startMs)), ready: median(runs.map((r) => r.readyMs)), rss: median(runs.map((r) => r.rss)) });
const c = summary(controlRuns);
const f = summary(freshRuns);
const e = summary(existingRuns);
const ratio = (value: number, base: number) => value / base;

/**
 * The budgets of issue 37 (docs/performance.md, "Start-up"), each a ratio against the bare Express
 * control measured in this same run (and one absolute ceiling, idle RSS): exceeding one fails the run.
 */
const STARTUP_BUDGETS = [
  { name: 'start, existing data dir', value: () => ratio(e.start, c.start), limit: 3, unit: '× bare' },
  { name: 'start, fresh data dir', value: () => ratio(f.start, c.start), limit: 4, unit: '× bare' },
  { name: 'idle RSS, existing data dir', value: () => settledExisting, limit: 100, unit: 'MB' },
  { name: 'idle RSS / bare', value: () => ratio(settledExisting, settledControl), limit: 1.8, unit: '× bare' },
] as const;

const row = (name: string, v: ReturnType<typeof summary>) =>
  `| ${name.padEnd(28)} | ${v.start.toFixed(0).padStart(7)} ms | ${ratio(v.start, c.start).toFixed(2).padStart(5)}× | ${v.ready.toFixed(0).padStart(7)} ms | ${ratio(v.ready, c.start).toFixed(2).padStart(5)}× | ${v.rss.toFixed(1).padStart(6)} MB | ${ratio(v.rss, c.rss).toFixed(2).padStart(5)}× |`;

const load = os.loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`\nStart-up to first 200 on /health, median of ${RUNS} runs (${os.cpus().length} cores, Node ${process.version}, load average ${load})\n`);
console.log('| run                          | first /health | ratio |  ready     | ratio |   RSS     | ratio |');
console.log('|------------------------------|------------|-------|------------|-------|-----------|-------|');
console.log(row('bare Express (control)', c));
console.log(row('Parley, existing data dir', e));
console.log(row('Parley, fresh data dir', f));
console.log(`\nready: the service's first answer of its own (GET /api/config, held while Parley upgrades its database and builds its services; the control's /health). RSS: 1.5 s after ready.`);
console.log(`Idle, settled (${SETTLE_SECONDS} s side by side): bare ${settledControl.toFixed(1)} MB, Parley (existing data dir) ${settledExisting.toFixed(1)} MB, ${ratio(settledExisting, settledControl).toFixed(2)}× bare`);
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
// Not budgets of issue 37 (the first /health is), shown beside them: how long until the service itself answers.
console.log(`| ${'ready, existing data dir'.padEnd(28)} | ${`${ratio(e.ready, c.start).toFixed(2)}×`.padStart(8)} |     — | reported |`);
console.log(`| ${'ready, fresh data dir'.padEnd(28)} | ${`${ratio(f.ready, c.start).toFixed(2)}×`.padStart(8)} |     — | reported |`);
if (exceeded > 0) {
  console.error(`\nbench:startup: ${exceeded} budget(s) exceeded`);
  process.exitCode = 1;
}
