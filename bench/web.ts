/**
 * Web search benchmark, measured side by side in one run (`npm run bench:web`): a loopback
 * SearXNG and article pages in a child process (on 127.0.0.2, allowed as an intranet range), the
 * Parley service in this process.
 *
 * Rows (issue 31):
 * - added time of a 3-page search (query → engine → pages fetched, read on the worker, passages
 *   ranked, sources) over the floor: the same engine call and the same three pages fetched raw in
 *   parallel, nothing else; paired per round, p50 ≤ 50 ms;
 * - pages fetched in parallel: reading 3 pages takes about as long as reading one (each page
 *   waits FAKE_PAGE_DELAY_MS at the server), not three times as long;
 * - event-loop delay p99 ≤ 20 ms while ten 1 MB pages are read, extracted and ranked.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { request } from 'undici';
import { startServer } from '../server/start';
import { memorySecretStore } from '../server/secrets';
import { DEFAULT_TASK_CONFIG } from '../server/contracts/tasks';
import { createWebSearchPlug } from '../server/web';
import { median, percentile, startChild } from './lib/process';

const ROUNDS = Number(process.env.BENCH_WEB_ROUNDS ?? 30);
const PAGE_DELAY = Number(process.env.FAKE_PAGE_DELAY_MS ?? 50);
const root = path.resolve(import.meta.dirname, '..');

const fake = await startChild(['--import', 'tsx', path.join(root, 'bench', 'lib', 'fake-web-child.ts')], { FAKE_PAGE_DELAY_MS: String(PAGE_DELAY) });
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parley-bench-web-'));
const server = await startServer({ host: '127.0.0.1', port: 0, dataDir, logLevel: 'warn', logToStdout: false, secrets: memorySecretStore(), rendererDir: path.join(dataDir, 'no-ui'), env: {} });
const { services } = server;
try {
  await services.tasks.setConfig({ ...DEFAULT_TASK_CONFIG, ENABLE_SEARCH_QUERY_GENERATION: false });
  await services.web.settings.update({ ENABLE_WEB_SEARCH: true, WEB_SEARCH_ENGINE: 'searxng', SEARXNG_QUERY_URL: `${fake.url}/search`, WEB_FETCH_ALLOWED_NETWORKS: ['127.0.0.2/32'], WEB_SEARCH_RESULT_COUNT: 10 });
  const plug = createWebSearchPlug({ web: services.web.service, tasks: services.tasks, rank: services.retrieval.rankTexts, log: pino({ level: 'silent' }) });
  const admin = { id: 'bench', role: 'admin' as const };
  const search = (q: string) => plug.search({ user: admin, messages: [{ role: 'user', content: q }], modelId: 'none', signal: new AbortController().signal, status: () => undefined });

  /** The floor: the engine asked, then its pages fetched raw, in parallel. */
  async function floor(q: string): Promise<void> {
    const answer = await request(`${fake.url}/search?q=${encodeURIComponent(q)}&format=json`);
    const { results } = (await answer.body.json()) as { results: Array<{ url: string }> };
    await Promise.all(results.map(async (r) => (await request(r.url)).body.arrayBuffer()));
  }
  const time = async (work: () => Promise<unknown>) => {
    const started = performance.now();
    await work();
    return performance.now() - started;
  };
  /** CPU time of this process (every thread: the service's and the reading workers') a piece of work took, in ms; much steadier than wall time on a loaded machine. */
  const cpu = async (work: () => Promise<unknown>) => {
    const before = process.cpuUsage();
    await work();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000;
  };

  // Warm up: the reading worker, jsdom, Readability, the engine connection.
  for (let i = 0; i < 3; i += 1) {
    await search('pages');
    await floor('pages');
  }

  const added: number[] = [];
  const full: number[] = [];
  const floors: number[] = [];
  const cpuAdded: number[] = [];
  for (let i = 0; i < ROUNDS; i += 1) {
    let f = 0;
    let s = 0;
    const fc = await cpu(async () => (f = await time(() => floor('pages'))));
    const sc = await cpu(
      async () =>
        (s = await time(async () => {
          const sources = await search('pages');
          if (sources.length === 0) throw new Error('the search found nothing');
        })),
    );
    floors.push(f);
    full.push(s);
    added.push(s - f);
    cpuAdded.push(sc - fc);
  }

  // Parallel reads: three pages against one, each waiting PAGE_DELAY at the server.
  const urls = [1, 2, 3].map((n) => `${fake.url}/page/${n}`);
  const one: number[] = [];
  const three: number[] = [];
  for (let i = 0; i < 10; i += 1) {
    one.push(await time(() => services.web.service.read(urls.slice(0, 1))));
    three.push(await time(() => services.web.service.read(urls)));
  }

  // Event-loop delay while ten 1 MB pages are read, extracted and ranked.
  const idle = monitorEventLoopDelay({ resolution: 1 });
  idle.enable();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  idle.disable();
  const busy = monitorEventLoopDelay({ resolution: 1 });
  let bigSources = 0;
  busy.enable();
  const bigStarted = performance.now();
  for (let i = 0; i < 3; i += 1) bigSources += (await search('big')).length;
  const bigMs = (performance.now() - bigStarted) / 3;
  busy.disable();

  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const rows: Array<[string, string, string]> = [
    ['3-page search, Parley (p50)', ms(median(full)), ''],
    ['3-page search, floor: engine + raw parallel fetch (p50)', ms(median(floors)), ''],
    ['added time over the floor, paired (p50)', ms(median(added)), `≤ 50 ms: ${median(added) <= 50 ? 'yes' : 'NO'}`],
    ['added time over the floor, paired (p90)', ms(percentile(added, 90)), ''],
    ['added CPU time over the floor, all threads, paired (p50)', ms(median(cpuAdded)), ''],
    [`read 1 page (p50; server waits ${PAGE_DELAY} ms)`, ms(median(one)), ''],
    ['read 3 pages (p50)', ms(median(three)), `parallel (< 2× one page): ${median(three) < 2 * median(one) ? 'yes' : 'NO'}`],
    ['event loop idle, p99', ms(idle.percentile(99) / 1e6), ''],
    [`event loop while reading ten 1 MB pages (${ms(bigMs)} per search, ${bigSources / 3} sources), p99`, ms(busy.percentile(99) / 1e6), `≤ 20 ms: ${busy.percentile(99) / 1e6 <= 20 ? 'yes' : 'NO'}`],
    ['  same, max', ms(busy.max / 1e6), ''],
  ];
  const width = Math.max(...rows.map((r) => r[0].length));
  console.log(`\nbench:web — ${ROUNDS} rounds, ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
  for (const [label, value, verdict] of rows) console.log(`${label.padEnd(width)}  ${value.padStart(10)}  ${verdict}`);
} finally {
  await server.close();
  await fake.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
