/**
 * Chat completion benchmark: Parley's /api/chat/completions against calling the same loopback
 * fake provider directly, measured side by side in one run. Three processes: the fake provider,
 * the Parley service (started from source) and this client. Run with `npm run bench:completion`.
 *
 * Prints the targets of the streaming issue in one table: added time-to-first-token (short chat,
 * and a 500-message chat saved with chat_id), streaming throughput of a ≈40,000-token answer,
 * bytes on the wire, server CPU per 1k tokens against the floor (parsing the provider's stream
 * alone), a byte relay's throughput (a third process copying bytes: the floor under any gateway),
 * and 50 concurrent streams on new connections, on reused ones, and saved into chats.
 */
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCompatProvider } from '../server/providers';
import { createStreamAgent, lineBatches, postJson } from '../server/providers/http-stream';
import { median, percentile, startChild, startListening } from './lib/process';

const root = path.resolve(import.meta.dirname, '..');
const serverChild = path.join(root, 'bench', 'lib', 'server-child.ts');
const SHORT_RUNS = Number(process.env.BENCH_TTFT_RUNS ?? 300);
const LONG_RUNS = Number(process.env.BENCH_LONG_RUNS ?? 100);
const THROUGHPUT_RUNS = Number(process.env.BENCH_THROUGHPUT_RUNS ?? 9);
/** Tokens of the throughput answer (≈ 60–80 ms each on the idle 2-core machine: hence the median of several rounds). */
const BIG = Number(process.env.BENCH_THROUGHPUT_TOKENS ?? 40_000);
const CONCURRENT = 50;

/** One streamed answer as the client saw it. */
interface StreamRun {
  ttftMs: number;
  totalMs: number;
  bytes: number;
  pieces: number;
  error?: string;
}

/** Posts a streaming completion and reads it to the end, timing the first text fragment. */
async function stream(url: string, headers: Record<string, string>, body: unknown): Promise<StreamRun> {
  const started = performance.now();
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  if (!res.ok || !res.body) return { ttftMs: NaN, totalMs: NaN, bytes: 0, pieces: 0, error: `HTTP ${res.status}: ${await res.text()}` };
  const decoder = new TextDecoder();
  let buffer = '';
  let ttftMs = NaN;
  let bytes = 0;
  let pieces = 0;
  let done = false;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (!frame.startsWith('data: ')) continue;
      const data = frame.slice(6);
      if (data === '[DONE]') {
        done = true;
        continue;
      }
      const parsed = JSON.parse(data) as { choices?: Array<{ delta?: { content?: string } }>; error?: { message: string } };
      if (parsed.error) return { ttftMs, totalMs: NaN, bytes, pieces, error: parsed.error.message };
      if (parsed.choices?.[0]?.delta?.content) {
        pieces += 1;
        if (Number.isNaN(ttftMs)) ttftMs = performance.now() - started;
      }
    }
  }
  return { ttftMs, totalMs: performance.now() - started, bytes, pieces, ...(done ? {} : { error: 'no [DONE]' }) };
}

/** Like `stream`, over node:http with the given agent (`false`: a new connection per request). */
function streamHttp(url: string, headers: Record<string, string>, body: unknown, agent: http.Agent | false): Promise<StreamRun> {
  const started = performance.now();
  const payload = JSON.stringify(body);
  return new Promise((resolve) => {
    const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)), ...headers } }, (res) => {
      res.setEncoding('utf8');
      let buffer = '';
      let ttftMs = NaN;
      let bytes = 0;
      let pieces = 0;
      let done = false;
      let error: string | undefined = res.statusCode === 200 ? undefined : `HTTP ${res.statusCode}`;
      res.on('data', (text: string) => {
        bytes += Buffer.byteLength(text);
        buffer += text;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (!frame.startsWith('data: ')) continue;
          if (frame === 'data: [DONE]') {
            done = true;
            continue;
          }
          if (frame.includes('"error"')) error = frame.slice(0, 200);
          // A frame with text (not the role-only opening frame, whose content is empty).
          else if (/"content":"[^"]/.test(frame)) {
            pieces += 1;
            if (Number.isNaN(ttftMs)) ttftMs = performance.now() - started;
          }
        }
      });
      res.on('end', () => resolve({ ttftMs, totalMs: performance.now() - started, bytes, pieces, ...(error ? { error } : done ? {} : { error: 'no [DONE]' }) }));
      res.on('error', (e) => resolve({ ttftMs, totalMs: NaN, bytes, pieces, error: e.message }));
    });
    req.on('error', (e) => resolve({ ttftMs: NaN, totalMs: NaN, bytes: 0, pieces: 0, error: e.message }));
    req.end(payload);
  });
}

/** CPU time (user + system) of a process in ms, from /proc (Linux). */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

async function json(url: string, method: string, body: unknown, token?: string): Promise<any> {
  const res = await fetch(url, { method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

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
}).catch((error: unknown) => {
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

  // Warm both paths (JIT, connection pools, model catalog).
  for (let i = 0; i < 30; i += 1) {
    await stream(direct.url, direct.headers, ask('bench tokens=3'));
    await stream(parley.url, parley.headers, ask('bench tokens=3'));
  }

  // 1. Time to first token, short chat (alternating so drift hits both).
  const shortDirect: number[] = [];
  const shortParley: number[] = [];
  for (let i = 0; i < SHORT_RUNS; i += 1) {
    shortDirect.push((await stream(direct.url, direct.headers, ask('bench tokens=3'))).ttftMs);
    shortParley.push((await stream(parley.url, parley.headers, ask('bench tokens=3'))).ttftMs);
  }

  // 2. Time to first token with a 500-message chat saved in Parley (sent with chat_id).
  const chat = await json(`${server.url}/api/v1/chats/new`, 'POST', { title: 'Long chat' }, token);
  const history: Array<{ role: string; content: string }> = [];
  for (let i = 0; i < 500; i += 1) {
    const message = { role: i % 2 === 0 ? 'user' : 'assistant', content: `Message ${i}: ${'lorem ipsum dolor sit amet '.repeat(4)}` };
    history.push(message);
    await json(`${server.url}/api/v1/chats/${chat.id}/messages`, 'POST', message, token);
  }
  // A user with many chats: history loading must not depend on them.
  for (let i = 0; i < 200; i += 1) await json(`${server.url}/api/v1/chats/new`, 'POST', { title: `filler ${i}` }, token);
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
  const clientCpuMs = () => {
    const used = process.cpuUsage();
    return (used.user + used.system) / 1000;
  };
  // One long answer on each path first, as the floor below gets: the first one runs code the
  // short answers above never made hot (measured: over twice the CPU per token of the next).
  for (const target of [direct, relayed, parley]) await stream(target.url, target.headers, ask(`bench tokens=${BIG}`));
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
  // The order alternates from round to round, so neither side always runs first (after a pause) or last.
  for (let i = 0; i < THROUGHPUT_RUNS; i += 1) {
    for (const run of i % 2 === 0 ? [runDirect, runRelayed, runParley] : [runParley, runRelayed, runDirect]) await run();
  }
  const smallParley = await stream(parley.url, parley.headers, ask('bench tokens=1000'));

  // The floor under the server's CPU: only parsing the provider's stream (undici, lines, JSON), in this process.
  const floorAgent = createStreamAgent();
  // Every frame's JSON parsed whole, one batch per read: the least a reader of the stream does.
  const parseOnly = async () => {
    const res = await postJson(new URL(direct.url), direct.headers, ask(`bench tokens=${BIG}`), floorAgent);
    let pieces = 0;
    for await (const lines of lineBatches(res.body)) {
      for (const line of lines) {
        if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
        if ((JSON.parse(line.slice(6)) as { choices?: Array<{ delta?: { content?: string } }> }).choices?.[0]?.delta?.content) pieces += 1;
      }
    }
    if (pieces !== BIG) throw new Error(`floor read ${pieces} pieces`);
  };
  await parseOnly();
  const floorBefore = process.cpuUsage();
  for (let i = 0; i < THROUGHPUT_RUNS; i += 1) await parseOnly();
  const floorCpu = process.cpuUsage(floorBefore);
  const floorCpuPer1k = (floorCpu.user + floorCpu.system) / 1000 / ((THROUGHPUT_RUNS * BIG) / 1000);

  // Diagnostics: the provider client Parley uses (openai SDK) alone, in this process, and a bare
  // round trip to the service: the floors under Parley's added time.
  const client = createCompatProvider({ url: fake.url, key: 'sk-bench' });
  const viaClient = async (text: string) => {
    const started = performance.now();
    let ttftMs = NaN;
    let pieces = 0;
    for await (const chunk of client.chatStream({ model: 'bench-model', messages: [{ role: 'user', content: text }] })) {
      if (!chunk.content) continue;
      pieces += 1;
      if (Number.isNaN(ttftMs)) ttftMs = performance.now() - started;
    }
    return { ttftMs, totalMs: performance.now() - started, pieces };
  };
  const clientTtft: number[] = [];
  const healthMs: number[] = [];
  for (let i = 0; i < SHORT_RUNS; i += 1) {
    clientTtft.push((await viaClient('bench tokens=3')).ttftMs);
    const t = performance.now();
    await (await fetch(`${server.url}/health`)).text();
    healthMs.push(performance.now() - t);
  }
  const clientRuns: Array<{ ttftMs: number; totalMs: number; pieces: number }> = [];
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < THROUGHPUT_RUNS; i += 1) clientRuns.push(await viaClient(`bench tokens=${BIG}`));
  const cpuAfter = process.cpuUsage(cpuBefore);
  const clientCpuPer1k = (cpuAfter.user + cpuAfter.system) / 1000 / ((THROUGHPUT_RUNS * BIG) / 1000);
  const rate = (runs: StreamRun[]) => median(runs.map((r) => r.pieces / ((r.totalMs - r.ttftMs) / 1000)));

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
  const concParley = await concurrent(parley, false);
  const reusedDirectAgent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENT });
  const reusedParleyAgent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENT });
  await concurrent(direct, reusedDirectAgent);
  await concurrent(parley, reusedParleyAgent);
  const reusedDirect = await concurrent(direct, reusedDirectAgent);
  const reusedParley = await concurrent(parley, reusedParleyAgent);
  const chatIds: string[] = [];
  for (let i = 0; i < CONCURRENT; i += 1) chatIds.push((await json(`${server.url}/api/v1/chats/new`, 'POST', { title: `stream ${i}` }, token)).id as string);
  await concurrent(parley, reusedParleyAgent, chatIds);
  const savedParley = await concurrent(parley, reusedParleyAgent, chatIds);
  reusedDirectAgent.destroy();
  reusedParleyAgent.destroy();
  const errors = (runs: StreamRun[]) => runs.filter((r) => r.error || r.pieces !== 300).length;

  // ---- report ----
  const f = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
  const signed = (n: number, digits = 2) => `${n >= 0 ? '+' : ''}${f(n, digits)}`;
  const rows: Array<[string, string, string, string, string]> = [];
  const addedP50 = percentile(shortParley, 50) - percentile(shortDirect, 50);
  const addedP99 = percentile(shortParley, 99) - percentile(shortDirect, 99);
  const addedLongP50 = percentile(longParley, 50) - percentile(longDirect, 50);
  const addedLongP99 = percentile(longParley, 99) - percentile(longDirect, 99);
  rows.push(['TTFT short chat p50', `${f(percentile(shortDirect, 50))} ms`, `${f(percentile(shortParley, 50))} ms`, `${signed(addedP50)} ms`, '≤ +3 ms']);
  rows.push(['TTFT short chat p99', `${f(percentile(shortDirect, 99))} ms`, `${f(percentile(shortParley, 99))} ms`, `${signed(addedP99)} ms`, '≤ +15 ms']);
  const shortP50 = percentile(shortParley, 50);
  const longP50 = percentile(longParley, 50);
  rows.push(['TTFT 500-msg chat p50 (saved in chat)', `${f(percentile(longDirect, 50))} ms`, `${f(longP50)} ms`, `${signed(addedLongP50)} ms; ${f(longP50 / shortP50)}× short`, '≤ 1.5× short']);
  // The provider's own time grows with the history it reads: Parley's growth against it.
  const directGrowth = percentile(longDirect, 50) / percentile(shortDirect, 50);
  rows.push(['· 500-msg growth, Parley over provider', `${f(directGrowth)}× short`, `${f(longP50 / shortP50)}× short`, `${f(longP50 / shortP50 / directGrowth)}×`, 'fair form of the 1.5× row']);
  rows.push(['TTFT 500-msg chat p99', `${f(percentile(longDirect, 99))} ms`, `${f(percentile(longParley, 99))} ms`, `${signed(addedLongP99)} ms`, '—']);
  const big = BIG.toLocaleString('en');
  const serverCpuPer1k = parleyCpu / ((THROUGHPUT_RUNS * BIG) / 1000);
  // The throughput three processes can reach on this machine's cores against two, from their CPU
  // per token: each process is bound by its own CPU, and together by the cores they share.
  const per1k = (ms: number) => ms / ((THROUGHPUT_RUNS * BIG) / 1000);
  const cores = os.cpus().length;
  const [dp, dc, vp, vc] = [per1k(pipelineCpu.directProvider), per1k(pipelineCpu.directClient), per1k(pipelineCpu.viaProvider), per1k(pipelineCpu.viaClient)];
  const directBound = Math.max(dp, dc, (dp + dc) / cores);
  const viaBound = Math.max(vp, vc, serverCpuPer1k, (vp + vc + serverCpuPer1k) / cores);
  rows.push([`throughput ${big} tokens`, `${f(rate(bigDirect), 0)} tok/s`, `${f(rate(bigParley), 0)} tok/s`, `${f(rate(bigParley) / rate(bigDirect))}×`, '≥ 0.9×']);
  rows.push([`· floor: byte relay, ${big} tokens`, `${f(rate(bigDirect), 0)} tok/s`, `${f(rate(bigRelayed), 0)} tok/s`, `${f(rate(bigRelayed) / rate(bigDirect))}×`, 'ceiling (3rd process)']);
  rows.push([`· throughput vs the byte relay`, `${f(rate(bigRelayed), 0)} tok/s`, `${f(rate(bigParley), 0)} tok/s`, `${f(rate(bigParley) / rate(bigRelayed))}×`, '—']);
  rows.push([
    `· ${cores}-core bound from CPU per 1k (provider, client, Parley)`,
    `${f(dp, 1)} + ${f(dc, 1)} ms`,
    `${f(vp, 1)} + ${f(vc, 1)} + ${f(serverCpuPer1k, 1)} ms`,
    `${f(directBound / viaBound)}×`,
    'ceiling (CPU)',
  ]);
  const bytesDirect = median(bigDirect.map((r) => r.bytes));
  const bytesParley = median(bigParley.map((r) => r.bytes));
  rows.push([`bytes, ${big} tokens`, `${f(bytesDirect / 1024, 0)} KiB`, `${f(bytesParley / 1024, 0)} KiB`, `${f(bytesParley / bytesDirect)}×`, 'linear']);
  rows.push([`bytes/token 1k vs ${big} (Parley)`, '—', `${f(smallParley.bytes / 1000, 1)} / ${f(bytesParley / BIG, 1)} B`, `${f(bytesParley / BIG / (smallParley.bytes / 1000))}×`, '≈ 1× (delta-only)']);
  rows.push(['server CPU per 1k tokens', `${f(floorCpuPer1k, 1)} ms (floor)`, `${f(serverCpuPer1k, 1)} ms`, `${f(serverCpuPer1k / floorCpuPer1k)}× floor`, '≤ 1.5× floor']);
  rows.push(['· floor: parse the provider stream alone', '—', `${f(floorCpuPer1k, 1)} ms / 1k`, '—', 'floor (undici, lines, JSON)']);
  rows.push(['· compat provider alone: TTFT p50', `${f(percentile(shortDirect, 50))} ms`, `${f(percentile(clientTtft, 50))} ms`, `${signed(percentile(clientTtft, 50) - percentile(shortDirect, 50))} ms`, 'floor (providers)']);
  rows.push(['· bare GET /health round trip p50', '—', `${f(percentile(healthMs, 50))} ms`, '—', 'floor (HTTP hop)']);
  rows.push([`· compat provider alone: ${big} tokens`, `${f(rate(bigDirect), 0)} tok/s`, `${f(rate(clientRuns as StreamRun[]), 0)} tok/s`, `${f(rate(clientRuns as StreamRun[]) / rate(bigDirect))}×`, 'ceiling (providers)']);
  rows.push(['· compat provider alone: CPU per 1k', '—', `${f(clientCpuPer1k, 1)} ms`, '—', 'of the server CPU above']);
  const concTtft = (c: typeof concDirect, p: number) => percentile(c.runs.map((r) => r.ttftMs).filter(Number.isFinite), p);
  const concRow = (name: string, d: typeof concDirect, v: typeof concDirect) =>
    rows.push([`${name}: TTFT p50 / p99`, `${f(concTtft(d, 50), 1)} / ${f(concTtft(d, 99), 1)} ms`, `${f(concTtft(v, 50), 1)} / ${f(concTtft(v, 99), 1)} ms`, `${signed(concTtft(v, 99) - concTtft(d, 99), 1)} ms p99`, '≤ +100 ms p99']);
  concRow('50 streams, new connections', concDirect, concParley);
  concRow('50 streams, reused connections', reusedDirect, reusedParley);
  concRow('50 streams, reused, saved in chats', reusedDirect, savedParley);
  rows.push(['50 streams: wall time (new conn.)', `${f(concDirect.wallMs, 0)} ms`, `${f(concParley.wallMs, 0)} ms`, `${f(concParley.wallMs / concDirect.wallMs)}×`, '—']);
  rows.push(['50 streams: errors (new / reused / saved)', `${errors(concDirect.runs)} / ${errors(reusedDirect.runs)}`, `${errors(concParley.runs)} / ${errors(reusedParley.runs)} / ${errors(savedParley.runs)}`, '—', '0']);

  const widths = [0, 1, 2, 3, 4].map((i) => Math.max(...rows.map((r) => r[i]!.length), ['measure', 'direct', 'via Parley', 'added / ratio', 'target'][i]!.length));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(`\nChat completions, Parley vs the same fake provider called directly (${os.cpus().length} cores, Node ${process.version})`);
  console.log(`runs: TTFT ${SHORT_RUNS} short + ${LONG_RUNS} long, throughput ${THROUGHPUT_RUNS}×${BIG.toLocaleString('en')} tokens, ${CONCURRENT} concurrent streams; load average ${os.loadavg()[0]!.toFixed(1)}\n`);
  console.log(line(['measure', 'direct', 'via Parley', 'added / ratio', 'target']));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const r of rows) console.log(line(r));
  const bad = [...bigParley, ...concParley.runs, ...reusedParley.runs, ...savedParley.runs].filter((r) => r.error);
  if (bad.length > 0) console.log(`\nerrors: ${bad.slice(0, 3).map((r) => r.error).join('; ')}`);
} finally {
  await server.stop();
  fake.stop();
  relay.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
