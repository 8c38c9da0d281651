/**
 * Chat completion benchmark: Parley's /api/chat/completions against calling the same loopback
 * fake provider directly, measured side by side in one run. Three processes: the fake provider,
 * the Parley service (started from source) and this client. Run with `npm run bench:completion`.
 *
 * Prints the targets of the streaming issue in one table: added time-to-first-token (short chat,
 * and a 500-message chat saved with chat_id), streaming throughput of a ≈40,000-token answer,
 * bytes on the wire, server CPU per 1k tokens against the floor (parsing the provider's stream
 * alone) for that burst and at a model's pace (one token per millisecond), a byte relay's
 * throughput and CPU (a third process copying bytes: the floor under any gateway), and 50
 * concurrent streams on new connections, on reused ones, and saved into chats.
 *
 * Every measure runs in `BENCH_ROUNDS` rounds (3): each row prints its median round, the spread
 * across rounds (lowest – highest) and whether every round meets its target (✓), none does (✗)
 * or the spread crosses it (⚠). `BENCH_PROFILE=<folder>` writes the service's CPU profiles of
 * the last round's short requests, throughput, paced and new-connection phases there and prints their top
 * functions.
 */
import http from 'node:http';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCompatProvider } from '../server/providers';
import { createStreamAgent, lineBatches, postJson } from '../server/providers/http-stream';
import { profileChild, topSelfTimes } from './lib/cpu-profile';
import { cpuMs, json, stream, streamHttp, type StreamRun } from './lib/completion-client';
import { cpuSince, cpuTime } from './lib/cpu-time';
import { median, percentile, startChild, startListening } from './lib/process';
import { summarize, type RoundRow, type Target } from './lib/rounds';

const root = path.resolve(import.meta.dirname, '..');
const serverChild = path.join(root, 'bench', 'lib', 'server-child.ts');
const SHORT_RUNS = Number(process.env.BENCH_TTFT_RUNS ?? 300);
const LONG_RUNS = Number(process.env.BENCH_LONG_RUNS ?? 100);
const THROUGHPUT_RUNS = Number(process.env.BENCH_THROUGHPUT_RUNS ?? 5);
/** Rounds of every measure: each row prints its median round and the spread across rounds. */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
/** Tokens of the paced answer (one per millisecond: ≈ 1 s). */
const PACED = Number(process.env.BENCH_PACED_TOKENS ?? 1000);
/** A folder for the service's CPU profiles of the last round's short requests, throughput, paced and new-connection phases. */
const PROFILE_DIR = process.env.BENCH_PROFILE ? path.resolve(process.env.BENCH_PROFILE) : undefined;
/** Tokens of the throughput answer (≈ 60–80 ms each on the idle 2-core machine: hence the median of several rounds). */
const BIG = Number(process.env.BENCH_THROUGHPUT_TOKENS ?? 40_000);
const CONCURRENT = 50;

if (PROFILE_DIR) mkdirSync(PROFILE_DIR, { recursive: true });
const fake = await startListening('fake-provider-child.ts');
// A third process that only copies bytes between client and provider: the throughput floor of any gateway.
const relay = await startListening('relay-child.ts', [fake.url]);
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parley-bench-completion-'));
const server = await startChild(['--import', 'tsx', serverChild, dataDir], {
  PARLEY_LOG_LEVEL: 'warn',
  PARLEY_SECRET_STORE: 'file',
  PARLEY_COMPAT_BASE_URL: fake.url,
  PARLEY_COMPAT_API_KEY: 'sk-bench',
  // Throughput, not the per-account request limit, is measured here.
  PARLEY_V1_RATE_LIMIT: '0',
}, { ipc: PROFILE_DIR !== undefined }).catch((error: unknown) => {
  fake.stop();
  relay.stop();
  rmSync(dataDir, { recursive: true, force: true });
  throw error;
});
const serverPid = server.child.pid as number;

try {
  const admin = await json(`${server.url}/api/v1/auths/signup`, 'POST', { name: 'Bench', email: 'bench@example.com', password: 'bench-password' });
  const token = admin.token as string;
  const tasksOff = await json(`${server.url}/api/v1/tasks/config`, 'GET', undefined, token).catch(() => undefined);
  await json(`${server.url}/api/v1/tasks/config/update`, 'POST', { ...tasksOff, ENABLE_TITLE_GENERATION: false, ENABLE_TAGS_GENERATION: false, ENABLE_FOLLOW_UP_GENERATION: false }, token);

  const direct = { url: `${fake.url}/chat/completions`, headers: { authorization: 'Bearer sk-bench' } };
  const relayed = { url: `${relay.url}/chat/completions`, headers: direct.headers };
  const parley = { url: `${server.url}/api/chat/completions`, headers: { authorization: `Bearer ${token}` } };
  const ask = (text: string, history: Array<{ role: string; content: string }> = []) => ({
    model: 'bench-model',
    stream: true,
    messages: [...history, { role: 'user', content: text }],
  });

  const clientCpuMs = () => {
    const used = process.cpuUsage();
    return (used.user + used.system) / 1000;
  };
  const rate = (runs: StreamRun[]) => median(runs.map((r) => r.pieces / ((r.totalMs - r.ttftMs) / 1000)));
  const f = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
  const signed = (n: number, digits = 2) => `${n >= 0 ? '+' : ''}${f(n, digits)}`;
  // Every frame's JSON parsed whole, one batch per read: the least a reader of the stream does.
  const floorAgent = createStreamAgent();
  /** Reads a stream as the floor does; gives back how many network reads it took. */
  const parseOnly = async (body: unknown, expected: number): Promise<number> => {
    const res = await postJson(new URL(direct.url), direct.headers, body, floorAgent);
    let pieces = 0;
    let reads = 0;
    for await (const lines of lineBatches(res.body)) {
      reads += 1;
      for (const line of lines) {
        if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
        if ((JSON.parse(line.slice(6)) as { choices?: Array<{ delta?: { content?: string } }> }).choices?.[0]?.delta?.content) pieces += 1;
      }
    }
    if (pieces !== expected) throw new Error(`floor read ${pieces} pieces`);
    return reads;
  };

  // Warm both paths (JIT, connection pools, model catalog).
  for (let i = 0; i < 30; i += 1) {
    await stream(direct.url, direct.headers, ask('bench tokens=3'));
    await stream(parley.url, parley.headers, ask('bench tokens=3'));
  }

  // The 500-message chat saved in Parley (sent with chat_id), and a user with many chats: history
  // loading must not depend on them.
  const chat = await json(`${server.url}/api/v1/chats/new`, 'POST', { title: 'Long chat' }, token);
  const history: Array<{ role: string; content: string }> = [];
  for (let i = 0; i < 500; i += 1) {
    const message = { role: i % 2 === 0 ? 'user' : 'assistant', content: `Message ${i}: ${'lorem ipsum dolor sit amet '.repeat(4)}` };
    history.push(message);
    await json(`${server.url}/api/v1/chats/${chat.id}/messages`, 'POST', message, token);
  }
  for (let i = 0; i < 200; i += 1) await json(`${server.url}/api/v1/chats/new`, 'POST', { title: `filler ${i}` }, token);
  const chatIds: string[] = [];
  for (let i = 0; i < CONCURRENT; i += 1) chatIds.push((await json(`${server.url}/api/v1/chats/new`, 'POST', { title: `stream ${i}` }, token)).id as string);

  // One long answer on each path first, as the floor below gets: the first one runs code the
  // short answers above never made hot (measured: over twice the CPU per token of the next).
  for (const target of [direct, relayed, parley]) await stream(target.url, target.headers, ask(`bench tokens=${BIG}`));
  await parseOnly(ask(`bench tokens=${BIG}`), BIG);
  const client = createCompatProvider({ url: fake.url, key: 'sk-bench' });

  /** Runs `work` with the service's CPU profiler on in the last round when BENCH_PROFILE names a folder. */
  const profiled = <T>(round: number, phase: string, work: () => Promise<T>): Promise<T> =>
    PROFILE_DIR && round === ROUNDS - 1 ? profileChild(server.child, path.join(PROFILE_DIR, `${phase}.cpuprofile`), work) : work();

  /** One round of every measure: the rows of the table, as this round measured them. */
  const measureRound = async (round: number): Promise<RoundRow[]> => {
    // 1. Time to first token, short chat (alternating so drift hits both).
    const shortDirect: number[] = [];
    const shortParley: number[] = [];
    const requestsBefore = cpuTime(serverPid);
    await profiled(round, 'short-requests', async () => {
      for (let i = 0; i < SHORT_RUNS; i += 1) {
        shortDirect.push((await stream(direct.url, direct.headers, ask('bench tokens=3'))).ttftMs);
        shortParley.push((await stream(parley.url, parley.headers, ask('bench tokens=3'))).ttftMs);
      }
    });
    const cpuPerRequest = cpuSince(requestsBefore, cpuTime(serverPid)).runMs / SHORT_RUNS;

    // 2. Time to first token with the 500-message chat saved in Parley (sent with chat_id).
    const longDirect: number[] = [];
    const longParley: number[] = [];
    for (let i = 0; i < LONG_RUNS; i += 1) {
      longDirect.push((await stream(direct.url, direct.headers, ask('bench tokens=3', history))).ttftMs);
      longParley.push((await stream(parley.url, parley.headers, { ...ask('bench tokens=3', history), chat_id: chat.id })).ttftMs);
    }

    // 3. Throughput, bytes and server CPU for a ≈40,000-token answer.
    const bigDirect: StreamRun[] = [];
    const bigRelayed: StreamRun[] = [];
    const bigParley: StreamRun[] = [];
    let parleyCpu = 0;
    // CPU of the provider and of this client while they stream (direct and via Parley): with three
    // busy processes on this machine's cores, they bound the throughput any gateway can reach.
    const pipelineCpu = { directProvider: 0, directClient: 0, viaProvider: 0, viaClient: 0 };
    const runDirect = async () => {
      const providerBefore = cpuMs(fake.pid);
      const clientBefore = clientCpuMs();
      bigDirect.push(await stream(direct.url, direct.headers, ask(`bench tokens=${BIG}`)));
      pipelineCpu.directProvider += cpuMs(fake.pid) - providerBefore;
      pipelineCpu.directClient += clientCpuMs() - clientBefore;
    };
    const runRelayed = async () => {
      bigRelayed.push(await stream(relayed.url, relayed.headers, ask(`bench tokens=${BIG}`)));
    };
    const runParley = async () => {
      const before = cpuMs(serverPid);
      const providerBefore = cpuMs(fake.pid);
      const clientBefore = clientCpuMs();
      bigParley.push(await stream(parley.url, parley.headers, ask(`bench tokens=${BIG}`)));
      parleyCpu += cpuMs(serverPid) - before;
      pipelineCpu.viaProvider += cpuMs(fake.pid) - providerBefore;
      pipelineCpu.viaClient += clientCpuMs() - clientBefore;
    };
    // The order alternates from run to run, so neither side always runs first (after a pause) or last.
    await profiled(round, 'throughput', async () => {
      for (let i = 0; i < THROUGHPUT_RUNS; i += 1) {
        for (const run of i % 2 === 0 ? [runDirect, runRelayed, runParley] : [runParley, runRelayed, runDirect]) await run();
      }
    });
    const smallParley = await stream(parley.url, parley.headers, ask('bench tokens=1000'));

    // The floor under the server's CPU: only parsing the provider's stream (undici, lines, JSON), in this process.
    const floorBefore = process.cpuUsage();
    let floorReads = 0;
    for (let i = 0; i < THROUGHPUT_RUNS; i += 1) floorReads += await parseOnly(ask(`bench tokens=${BIG}`), BIG);
    const floorCpu = process.cpuUsage(floorBefore);
    const floorCpuPer1k = (floorCpu.user + floorCpu.system) / 1000 / ((THROUGHPUT_RUNS * BIG) / 1000);

    // 3b. The same at a model's pace: one token per millisecond, so a network read holds about
    // one frame (a fast burst packs many frames into a read and hides what each read costs).
    // The byte relay at the same pace: a read and a write per frame, the least any gateway does.
    const pacedBefore = cpuTime(serverPid);
    await profiled(round, 'paced', () => stream(parley.url, parley.headers, ask(`bench tokens=${PACED} delay=1`)));
    const pacedCpu = cpuSince(pacedBefore, cpuTime(serverPid)).runMs;
    const relayBefore = cpuTime(relay.pid);
    await stream(relayed.url, relayed.headers, ask(`bench tokens=${PACED} delay=1`));
    const relayCpu = cpuSince(relayBefore, cpuTime(relay.pid)).runMs;
    const pacedFloorBefore = process.cpuUsage();
    const pacedReads = await parseOnly(ask(`bench tokens=${PACED} delay=1`), PACED);
    const pacedFloor = process.cpuUsage(pacedFloorBefore);
    const pacedFloorMs = (pacedFloor.user + pacedFloor.system) / 1000;

    // Diagnostics: the provider client Parley uses alone, in this process, and a bare round
    // trip to the service: the floors under Parley's added time.
    const viaClient = async (text: string) => {
      const started = performance.now();
      let ttftMs = NaN;
      let pieces = 0;
      for await (const chunk of client.chatStream({ model: 'bench-model', messages: [{ role: 'user', content: text }] })) {
        if (!chunk.content) continue;
        pieces += 1;
        if (Number.isNaN(ttftMs)) ttftMs = performance.now() - started;
      }
      return { ttftMs, totalMs: performance.now() - started, bytes: 0, pieces };
    };
    const clientTtft: number[] = [];
    const healthMs: number[] = [];
    for (let i = 0; i < SHORT_RUNS; i += 1) {
      clientTtft.push((await viaClient('bench tokens=3')).ttftMs);
      const t = performance.now();
      await (await fetch(`${server.url}/health`)).text();
      healthMs.push(performance.now() - t);
    }
    const clientRuns: StreamRun[] = [];
    const cpuBefore = process.cpuUsage();
    for (let i = 0; i < THROUGHPUT_RUNS; i += 1) clientRuns.push(await viaClient(`bench tokens=${BIG}`));
    const cpuAfter = process.cpuUsage(cpuBefore);
    const clientCpuPer1k = (cpuAfter.user + cpuAfter.system) / 1000 / ((THROUGHPUT_RUNS * BIG) / 1000);

    // 4. 50 concurrent streams, 300 tokens each at one every 2 ms: on new connections, on reused
    // (kept-alive, warmed) ones, and with each answer saved into its own chat.
    const concurrent = async (target: { url: string; headers: Record<string, string> }, agent: http.Agent | false, chats?: string[]) => {
      const started = performance.now();
      const runs = await Promise.all(
        Array.from({ length: CONCURRENT }, (_, i) => streamHttp(target.url, target.headers, { ...ask('bench tokens=300 delay=2'), ...(chats ? { chat_id: chats[i] } : {}) }, agent)),
      );
      return { runs, wallMs: performance.now() - started };
    };
    const concDirect = await concurrent(direct, false);
    const concParley = await profiled(round, 'new-connections', () => concurrent(parley, false));
    const reusedDirectAgent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENT });
    const reusedParleyAgent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENT });
    await concurrent(direct, reusedDirectAgent);
    await concurrent(parley, reusedParleyAgent);
    const reusedDirect = await concurrent(direct, reusedDirectAgent);
    const reusedParley = await concurrent(parley, reusedParleyAgent);
    await concurrent(parley, reusedParleyAgent, chatIds);
    const savedParley = await concurrent(parley, reusedParleyAgent, chatIds);
    reusedDirectAgent.destroy();
    reusedParleyAgent.destroy();
    const errors = (runs: StreamRun[]) => runs.filter((r) => r.error || r.pieces !== 300).length;
    const bad = [...bigParley, ...concParley.runs, ...reusedParley.runs, ...savedParley.runs].filter((r) => r.error);
    if (bad.length > 0) console.log(`round ${round + 1} errors: ${bad.slice(0, 3).map((r) => r.error).join('; ')}`);

    // ---- this round's rows ----
    const rows: RoundRow[] = [];
    const add = (name: string, cells: string[], value: number, show: (n: number) => string, targetText: string, target?: Target) =>
      rows.push({ name, cells, value, show, targetText, ...(target ? { target } : {}) });
    const ms = (n: number) => `${signed(n)} ms`;
    const times = (n: number) => `${f(n)}×`;
    const addedP50 = percentile(shortParley, 50) - percentile(shortDirect, 50);
    const addedP99 = percentile(shortParley, 99) - percentile(shortDirect, 99);
    const addedLongP99 = percentile(longParley, 99) - percentile(longDirect, 99);
    add('TTFT short chat p50', [`${f(percentile(shortDirect, 50))} ms`, `${f(percentile(shortParley, 50))} ms`, ms(addedP50)], addedP50, ms, '≤ +3 ms', { max: 3 });
    add('· server CPU per short request (3 tokens)', ['—', `${f(cpuPerRequest)} ms`, '—'], cpuPerRequest, (n) => `${f(n)} ms`, 'what 50 new requests queue behind');
    add('TTFT short chat p99', [`${f(percentile(shortDirect, 99))} ms`, `${f(percentile(shortParley, 99))} ms`, ms(addedP99)], addedP99, ms, '≤ +15 ms', { max: 15 });
    const shortP50 = percentile(shortParley, 50);
    const longP50 = percentile(longParley, 50);
    add('TTFT 500-msg chat p50 (saved in chat)', [`${f(percentile(longDirect, 50))} ms`, `${f(longP50)} ms`, `${signed(longP50 - percentile(longDirect, 50))} ms; ${f(longP50 / shortP50)}× short`], longP50 / shortP50, (n) => `${f(n)}× short`, '≤ 1.5× short', { max: 1.5 });
    // The provider's own time grows with the history it reads: Parley's growth against it.
    const directGrowth = percentile(longDirect, 50) / percentile(shortDirect, 50);
    add('· 500-msg growth, Parley over provider', [`${f(directGrowth)}× short`, `${f(longP50 / shortP50)}× short`, times(longP50 / shortP50 / directGrowth)], longP50 / shortP50 / directGrowth, times, 'fair form of the 1.5× row');
    add('TTFT 500-msg chat p99', [`${f(percentile(longDirect, 99))} ms`, `${f(percentile(longParley, 99))} ms`, ms(addedLongP99)], addedLongP99, ms, '—');
    const big = BIG.toLocaleString('en');
    const serverCpuPer1k = parleyCpu / ((THROUGHPUT_RUNS * BIG) / 1000);
    // The throughput three processes can reach on this machine's cores against two, from their CPU
    // per token: each process is bound by its own CPU, and together by the cores they share.
    const per1k = (used: number) => used / ((THROUGHPUT_RUNS * BIG) / 1000);
    const cores = os.cpus().length;
    const [dp, dc, vp, vc] = [per1k(pipelineCpu.directProvider), per1k(pipelineCpu.directClient), per1k(pipelineCpu.viaProvider), per1k(pipelineCpu.viaClient)];
    const directBound = Math.max(dp, dc, (dp + dc) / cores);
    const viaBound = Math.max(vp, vc, serverCpuPer1k, (vp + vc + serverCpuPer1k) / cores);
    add(`throughput ${big} tokens`, [`${f(rate(bigDirect), 0)} tok/s`, `${f(rate(bigParley), 0)} tok/s`, times(rate(bigParley) / rate(bigDirect))], rate(bigParley) / rate(bigDirect), times, '≥ 0.9×', { min: 0.9 });
    add(`· floor: byte relay, ${big} tokens`, [`${f(rate(bigDirect), 0)} tok/s`, `${f(rate(bigRelayed), 0)} tok/s`, times(rate(bigRelayed) / rate(bigDirect))], rate(bigRelayed) / rate(bigDirect), times, 'ceiling (3rd process)');
    add('· throughput vs the byte relay', [`${f(rate(bigRelayed), 0)} tok/s`, `${f(rate(bigParley), 0)} tok/s`, times(rate(bigParley) / rate(bigRelayed))], rate(bigParley) / rate(bigRelayed), times, '—');
    add(`· ${cores}-core bound from CPU per 1k (provider, client, Parley)`, [`${f(dp, 1)} + ${f(dc, 1)} ms`, `${f(vp, 1)} + ${f(vc, 1)} + ${f(serverCpuPer1k, 1)} ms`, times(directBound / viaBound)], directBound / viaBound, times, 'ceiling (CPU)');
    const bytesDirect = median(bigDirect.map((r) => r.bytes));
    const bytesParley = median(bigParley.map((r) => r.bytes));
    add(`bytes, ${big} tokens`, [`${f(bytesDirect / 1024, 0)} KiB`, `${f(bytesParley / 1024, 0)} KiB`, times(bytesParley / bytesDirect)], bytesParley / bytesDirect, times, 'linear');
    const bytesGrowth = bytesParley / BIG / (smallParley.bytes / 1000);
    add(`bytes/token 1k vs ${big} (Parley)`, ['—', `${f(smallParley.bytes / 1000, 1)} / ${f(bytesParley / BIG, 1)} B`, times(bytesGrowth)], bytesGrowth, times, '≈ 1× (delta-only)');
    add('server CPU per 1k tokens', [`${f(floorCpuPer1k, 1)} ms (floor)`, `${f(serverCpuPer1k, 1)} ms`, `${f(serverCpuPer1k / floorCpuPer1k)}× floor`], serverCpuPer1k / floorCpuPer1k, (n) => `${f(n)}×`, '≤ 1.5× floor', { max: 1.5 });
    add('· floor: parse the provider stream alone', ['—', `${f(floorCpuPer1k, 1)} ms / 1k`, '—'], floorCpuPer1k, (n) => `${f(n, 1)} ms`, 'floor (undici, lines, JSON)');
    const framesPerRead = (THROUGHPUT_RUNS * BIG) / floorReads;
    add(`· frames per network read, ${big} tokens (floor)`, ['—', f(framesPerRead, 1), '—'], framesPerRead, (n) => f(n, 1), 'fewer: more CPU per token');
    const paced = PACED.toLocaleString('en');
    const perPaced = (used: number) => used / (PACED / 1000);
    const pacedRatio = pacedCpu / pacedFloorMs;
    add(
      `server CPU per 1k, ${paced} tokens 1 per ms`,
      [`${f(perPaced(pacedFloorMs), 1)} ms (floor)`, `${f(perPaced(pacedCpu), 1)} ms`, `${f(pacedRatio)}× floor`],
      pacedRatio,
      (n) => `${f(n)}×`,
      '≤ 1.5× floor',
      { max: 1.5 },
    );
    add(`· byte relay at that pace: CPU per 1k`, [`${f(perPaced(relayCpu), 1)} ms`, `${f(perPaced(pacedCpu), 1)} ms`, `${f(pacedCpu / relayCpu)}× relay`], pacedCpu / relayCpu, (n) => `${f(n)}×`, 'floor (a read and a write per frame)');
    add(`· frames per network read, paced (floor)`, ['—', f(PACED / pacedReads, 1), '—'], PACED / pacedReads, (n) => f(n, 1), '—');
    const clientP50 = percentile(clientTtft, 50) - percentile(shortDirect, 50);
    add('· compat provider alone: TTFT p50', [`${f(percentile(shortDirect, 50))} ms`, `${f(percentile(clientTtft, 50))} ms`, ms(clientP50)], clientP50, ms, 'floor (providers)');
    add('· bare GET /health round trip p50', ['—', `${f(percentile(healthMs, 50))} ms`, '—'], percentile(healthMs, 50), (n) => `${f(n)} ms`, 'floor (HTTP hop)');
    add(`· compat provider alone: ${big} tokens`, [`${f(rate(bigDirect), 0)} tok/s`, `${f(rate(clientRuns), 0)} tok/s`, times(rate(clientRuns) / rate(bigDirect))], rate(clientRuns) / rate(bigDirect), times, 'ceiling (providers)');
    add('· compat provider alone: CPU per 1k', ['—', `${f(clientCpuPer1k, 1)} ms`, '—'], clientCpuPer1k, (n) => `${f(n, 1)} ms`, 'of the server CPU above');
    const concTtft = (c: typeof concDirect, p: number) => percentile(c.runs.map((r) => r.ttftMs).filter(Number.isFinite), p);
    const concRow = (name: string, d: typeof concDirect, v: typeof concDirect) => {
      const added = concTtft(v, 99) - concTtft(d, 99);
      add(`${name}: TTFT p50 / p99`, [`${f(concTtft(d, 50), 1)} / ${f(concTtft(d, 99), 1)} ms`, `${f(concTtft(v, 50), 1)} / ${f(concTtft(v, 99), 1)} ms`, `${signed(added, 1)} ms p99`], added, (n) => `${signed(n, 1)} ms`, '≤ +100 ms p99', { max: 100 });
    };
    concRow('50 streams, new connections', concDirect, concParley);
    concRow('50 streams, reused connections', reusedDirect, reusedParley);
    concRow('50 streams, reused, saved in chats', reusedDirect, savedParley);
    add('50 streams: wall time (new conn.)', [`${f(concDirect.wallMs, 0)} ms`, `${f(concParley.wallMs, 0)} ms`, times(concParley.wallMs / concDirect.wallMs)], concParley.wallMs / concDirect.wallMs, times, '—');
    const errorCount = errors(concDirect.runs) + errors(reusedDirect.runs) + errors(concParley.runs) + errors(reusedParley.runs) + errors(savedParley.runs);
    add('50 streams: errors (new / reused / saved)', [`${errors(concDirect.runs)} / ${errors(reusedDirect.runs)}`, `${errors(concParley.runs)} / ${errors(reusedParley.runs)} / ${errors(savedParley.runs)}`, '—'], errorCount, (n) => f(n, 0), '0', { max: 0 });
    return rows;
  };

  const rounds: RoundRow[][] = [];
  const loads: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    loads.push(os.loadavg()[0]!);
    const started = performance.now();
    rounds.push(await measureRound(round));
    console.log(`round ${round + 1} of ${ROUNDS}: ${f((performance.now() - started) / 1000, 0)} s, load average ${f(loads[round]!, 1)} at its start`);
  }
  loads.push(os.loadavg()[0]!);

  // ---- report ----
  const header = ['measure', 'direct', 'via Parley', 'added / ratio', `spread (${ROUNDS} rounds)`, 'target', 'verdict'];
  const rows = summarize(rounds);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(`\nChat completions, Parley vs the same fake provider called directly (${os.cpus().length} cores, Node ${process.version})`);
  console.log(
    `${ROUNDS} rounds of: TTFT ${SHORT_RUNS} short + ${LONG_RUNS} long, throughput ${THROUGHPUT_RUNS}×${BIG.toLocaleString('en')} tokens, ${PACED.toLocaleString('en')} paced tokens, ${CONCURRENT} concurrent streams; load average ${loads.map((l) => f(l, 1)).join(', ')} (at each round's start and at the end)`,
  );
  console.log('cells: the median round; spread: the lowest and highest round; verdict: ✓ every round meets the target, ⚠ the spread crosses it, ✗ no round meets it\n');
  console.log(line(header));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const r of rows) console.log(line(r));
  if (PROFILE_DIR) {
    for (const phase of ['short-requests', 'throughput', 'paced', 'new-connections']) {
      const file = path.join(PROFILE_DIR, `${phase}.cpuprofile`);
      console.log(`\nservice CPU profile, ${phase} (last round): ${file}`);
      for (const top of topSelfTimes(file)) console.log(`  ${f(top.ms, 1).padStart(8)} ms ${f(top.share * 100, 1).padStart(5)} %  ${top.name}`);
    }
  }
} finally {
  await server.stop();
  fake.stop();
  relay.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
