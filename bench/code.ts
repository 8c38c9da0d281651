/**
 * Code interpreter benchmark (`npm run bench:code`), measured in one run on this machine:
 *
 * - cold start: a person's first run with no warm-up (Pyodide loads in the worker);
 * - first run after warm-up: the sandbox started as the interpreter toggle is turned on (or the
 *   answer starts), the code arriving after the model's first tokens (BENCH_CODE_TOKENS_MS, 1500);
 * - later runs: the time a trivial cell takes, i.e. what Parley adds over the code's own time
 *   (message to the worker, namespace, output capture, the files walk), and the same for a cell
 *   that prints and writes a chart, against the code's own time measured inside Python;
 * - the service's event loop while Python spins for 3 s in the worker (p99 of its delay).
 *
 * Targets (issue 35): first run ≤ 1.5 s after warm-up, later runs ≤ 50 ms added, event-loop p99 ≤ 20 ms.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createLogger } from '../server/platform/log';
import { createPythonSandbox } from '../server/tools';
import { median, percentile } from './lib/process';

const RUNS = Number(process.env.BENCH_CODE_RUNS ?? 40);
const TOKENS_MS = Number(process.env.BENCH_CODE_TOKENS_MS ?? 1500);
const LIMITS = { timeoutMs: 60_000, memoryMb: 256 };
const OPTIONS = { space: 'bench', files: [], outputLimit: 20_000, maxFiles: 10, maxFileBytes: 20 * 1024 * 1024 };
const log = createLogger({ level: 'silent', stdout: false }).log;

const CHART = `import time
_t = time.perf_counter()
import matplotlib.pyplot as plt
plt.bar(['a', 'b', 'c', 'd'], [3, 5, 2, 7])
plt.title('chart')
plt.savefig('chart.svg')
print(sum(range(1000)))
(time.perf_counter() - _t) * 1000`;

async function timed<T>(work: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const value = await work();
  return [performance.now() - started, value];
}

const row = (label: string, value: string, target = '') => console.log(`${label.padEnd(52)} ${value.padStart(12)}  ${target}`);

async function main(): Promise<void> {
  // Cold: nothing started before the first run.
  const cold = createPythonSandbox({ log });
  const [coldMs] = await timed(() => cold.run('1 + 1', OPTIONS, LIMITS));
  await cold.close();

  // Warmed as the answer starts; the code comes after the model's first tokens.
  const warm = createPythonSandbox({ log });
  const warming = warm.warm();
  await new Promise((resolve) => setTimeout(resolve, TOKENS_MS));
  const [firstMs] = await timed(() => warm.run('1 + 1', OPTIONS, LIMITS));
  await warming;

  const trivial: number[] = [];
  for (let i = 0; i < RUNS; i += 1) trivial.push((await timed(() => warm.run('x = 1', OPTIONS, LIMITS)))[0]);
  const charts: number[] = [];
  const own: number[] = [];
  for (let i = 0; i < Math.max(5, RUNS / 4); i += 1) {
    const [ms, ran] = await timed(() => warm.run(CHART, OPTIONS, LIMITS));
    charts.push(ms);
    own.push(Number(ran.result));
  }

  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  await warm.run('import time\nend = time.time() + 3\nwhile time.time() < end:\n    pass', OPTIONS, LIMITS);
  delay.disable();
  await warm.close();

  console.log(`Code interpreter (Pyodide in a worker thread), ${RUNS} runs`);
  row('cold first run (no warm-up)', `${coldMs.toFixed(0)} ms`);
  row(`first run, warmed ${TOKENS_MS} ms before the code arrives`, `${firstMs.toFixed(0)} ms`, 'target ≤ 1500 ms');
  row('later runs: a trivial cell, median (added time)', `${median(trivial).toFixed(1)} ms`, 'target ≤ 50 ms');
  row('later runs: a trivial cell, p95', `${percentile(trivial, 95).toFixed(1)} ms`);
  row('a chart cell, median wall time', `${median(charts).toFixed(1)} ms`);
  row('  its own time inside Python, median', `${median(own).toFixed(1)} ms`);
  row('  added over its own time', `${(median(charts) - median(own)).toFixed(1)} ms`, 'target ≤ 50 ms');
  row('event-loop delay p99 while Python spins 3 s', `${(delay.percentile(99) / 1e6).toFixed(1)} ms`, 'target ≤ 20 ms');
  row('event-loop delay max while Python spins', `${(delay.max / 1e6).toFixed(1)} ms`);
}

await main();
