/**
 * Built-in model benchmark: the same GGUF answered through Parley (/api/chat/completions →
 * completion pipeline → runtime child process → node-llama-cpp) and by node-llama-cpp called
 * directly in a process of its own, alternating in one run with the same threads, context size and
 * greedy decoding (so both produce the same tokens). Also the service's event-loop delay while
 * it streams answers. Run with `npm run bench:builtin`.
 *
 * The model is generated (test/fixtures/tiny-gguf.ts, a "medium" 256-wide, 4-block variant by
 * default) or given with BENCH_GGUF=/path/to/model.gguf. A tiny model decodes a token in about
 * a millisecond, so any per-token cost of Parley shows up far larger than with a real model.
 *
 * Targets: tokens/s ≥ 0.95× direct, time to first token ≤ +5 ms, event-loop delay p99 ≤ 20 ms.
 *
 * Noise: the runs are BENCH_ROUNDS rounds of paired runs (direct and Parley back to back, which
 * goes first alternating), and each figure is printed as the median of all pairs, the middle
 * half of the pairs, and each round's median, so a reader sees how much one run can differ. CPU
 * time per answer (time on a core, and time waiting for one, from /proc on Linux) is printed for
 * both sides: it hardly depends on the machine's load, and says what Parley adds per answer.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { writeTinyGguf } from '../test/fixtures/tiny-gguf';
import { childPid, cpuSince, cpuTime, type CpuTime } from './lib/cpu-time';
import { median, percentile, startChild } from './lib/process';

const root = path.resolve(import.meta.dirname, '..');
const serverChild = path.join(root, 'bench', 'lib', 'server-child.ts');
const THREADS = Number(process.env.BENCH_THREADS ?? 1);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** Paired runs per round. */
const TTFT_RUNS = Number(process.env.BENCH_TTFT_RUNS ?? 12);
const THROUGHPUT_RUNS = Number(process.env.BENCH_THROUGHPUT_RUNS ?? 6);
const ANSWER_TOKENS = Number(process.env.BENCH_ANSWER_TOKENS ?? 400);
/** A short answer for time to first token (long enough that its first piece is visible text). */
const TTFT_TOKENS = 8;
const LOOP_SECONDS = Number(process.env.BENCH_LOOP_SECONDS ?? 8);
/** The generated model answers this at length (greedy decoding does not reach its end token within 1,000 tokens). */
const PROMPT = 'Explain everything you know about rivers, mountains and seas in great detail.';

interface Run {
  ttftMs: number;
  /** When the last piece of text arrived (the end of decoding as a reader sees it). */
  lastTextMs: number;
  totalMs: number;
  tokens: number;
  promptTokens: number;
  text: string;
}

/** Decode rate: tokens after the first over the time from the first text to the last. */
const tokensPerSecond = (run: Run) => ((run.tokens - 1) * 1000) / (run.lastTextMs - run.ttftMs);
/** The whole answer's rate: also counts what follows the last text (usage, saving, the end of the response). */
const answerTokensPerSecond = (run: Run) => ((run.tokens - 1) * 1000) / (run.totalMs - run.ttftMs);

async function json(url: string, method: string, body: unknown, token?: string): Promise<any> {
  const res = await fetch(url, { method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** One kept-alive connection, as an OpenAI client with a connection pool would use. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

/**
 * One streamed answer through Parley, timed by the client from sending the request to the
 * first text. node:http rather than fetch: undici's per-request cost is the client's, not Parley's.
 */
function parleyRun(url: string, token: string, model: string, maxTokens: number): Promise<Run> {
  const body = JSON.stringify({ model, stream: true, temperature: 0, max_tokens: maxTokens, messages: [{ role: 'user', content: PROMPT }] });
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(`${url}/api/chat/completions`, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: `Bearer ${token}` } }, (res) => {
      res.setEncoding('utf8');
      let buffer = '';
      let ttftMs = NaN;
      let lastTextMs = NaN;
      let text = '';
      let tokens = 0;
      let promptTokens = 0;
      if (res.statusCode !== 200) {
        res.on('data', (d: string) => (buffer += d));
        res.on('end', () => reject(new Error(`HTTP ${res.statusCode}: ${buffer}`)));
        return;
      }
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (!frame.startsWith('data: ') || frame === 'data: [DONE]') continue;
          const parsed = JSON.parse(frame.slice(6)) as { choices?: Array<{ delta?: { content?: string } }>; usage?: { completion_tokens: number; prompt_tokens: number }; error?: { message: string } };
          if (parsed.error) return reject(new Error(parsed.error.message));
          const piece = parsed.choices?.[0]?.delta?.content;
          if (piece) {
            lastTextMs = performance.now() - started;
            if (Number.isNaN(ttftMs)) ttftMs = lastTextMs;
            text += piece;
          }
          if (parsed.usage) ({ completion_tokens: tokens, prompt_tokens: promptTokens } = parsed.usage);
        }
      });
      res.on('end', () => resolve({ ttftMs, lastTextMs, totalMs: performance.now() - started, tokens, promptTokens, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** node-llama-cpp called directly, in its own process like Parley's runtime (bench/lib/direct-llama-child.ts). */
async function startDirect(modelPath: string, contextSize: number): Promise<{ pid: number; run(maxTokens: number): Promise<Run>; stop(): void }> {
  const child = fork(path.join(root, 'bench', 'lib', 'direct-llama-child.ts'), [modelPath, String(THREADS), String(contextSize)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`the direct node-llama-cpp process exited with ${code}`)));
  });
  return {
    pid: child.pid!,
    run: (maxTokens) =>
      new Promise<Run>((resolve) => {
        child.once('message', (run: Run) => resolve(run));
        child.send({ type: 'run', prompt: PROMPT, maxTokens });
      }),
    stop: () => child.kill(),
  };
}

/** Asks the service child for its event-loop delay histogram (see bench/lib/server-child.ts). */
function loopDelay(child: ChildProcess, type: 'loop-delay-reset' | 'loop-delay-report'): Promise<{ p50: number; p99: number; max: number; count: number } | undefined> {
  child.send({ type });
  if (type === 'loop-delay-reset') return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const onMessage = (message: { type?: string; p50: number; p99: number; max: number; count: number }) => {
      if (message?.type !== 'loop-delay') return;
      child.off('message', onMessage);
      resolve(message);
    };
    child.on('message', onMessage);
  });
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parley-bench-builtin-'));
const modelPath = process.env.BENCH_GGUF ?? writeTinyGguf(path.join(dataDir, 'bench-medium.gguf'), { width: 256, blocks: 4, feedForward: 768 });
const server = await startChild(['--import', 'tsx', serverChild, path.join(dataDir, 'data')], { PARLEY_LOG_LEVEL: 'warn', PARLEY_SECRET_STORE: 'file', PARLEY_V1_RATE_LIMIT: '0' }, { ipc: true }).catch((error: unknown) => {
  rmSync(dataDir, { recursive: true, force: true });
  throw error;
});

try {
  const admin = await json(`${server.url}/api/v1/auths/signup`, 'POST', { name: 'Bench', email: 'bench@example.com', password: 'bench-password' });
  const token = admin.token as string;
  const tasks = await json(`${server.url}/api/v1/tasks/config`, 'GET', undefined, token);
  await json(`${server.url}/api/v1/tasks/config/update`, 'POST', { ...tasks, ENABLE_TITLE_GENERATION: false, ENABLE_TAGS_GENERATION: false, ENABLE_FOLLOW_UP_GENERATION: false }, token);
  await json(`${server.url}/builtin/config`, 'POST', { threads: THREADS, gpu_layers: 0, idle_unload_seconds: 0 }, token);
  const entry = await json(`${server.url}/builtin/models/import`, 'POST', { path: modelPath }, token);
  // Set explicitly (the runtime's default is the same: the model's own, at most 8192), so both sides surely use it.
  const contextSize = Math.min(entry.context_length as number, 8192);
  await json(`${server.url}/builtin/config`, 'POST', { context_size: contextSize }, token);

  // The same model, context and threads, in a process of its own.
  const direct = await startDirect(modelPath, contextSize);

  // Warm both paths (model load in the runtime, JIT, template parsing).
  for (let i = 0; i < 5; i += 1) {
    await direct.run(8);
    await parleyRun(server.url, token, entry.id, 8);
  }
  const runtimePid = childPid(server.child.pid!, 'llama-runtime');

  /** One direct and one Parley answer back to back, the first of the two alternating with `i`. */
  async function pair(i: number, maxTokens: number, cpu?: { direct: CpuTime[]; runtime: CpuTime[]; service: CpuTime[]; client: CpuTime[] }): Promise<{ direct: Run; parley: Run }> {
    const timed = async <T>(work: () => Promise<T>, pids: number[]): Promise<[T, CpuTime[]]> => {
      const before = pids.map(cpuTime);
      const result = await work();
      return [result, pids.map((pid, k) => cpuSince(before[k]!, cpuTime(pid)))];
    };
    const runDirect = async () => {
      const [run, [used]] = await timed(() => direct.run(maxTokens), [direct.pid]);
      cpu?.direct.push(used!);
      return run;
    };
    const runParley = async () => {
      const [run, [runtime, service, client]] = await timed(() => parleyRun(server.url, token, entry.id, maxTokens), [runtimePid ?? -1, server.child.pid!, process.pid]);
      cpu?.runtime.push(runtime!);
      cpu?.service.push(service!);
      cpu?.client.push(client!);
      return run;
    };
    if (i % 2 === 0) {
      const d = await runDirect();
      return { direct: d, parley: await runParley() };
    }
    const p = await runParley();
    return { direct: await runDirect(), parley: p };
  }

  const loadAtStart = os.loadavg()[0]!;
  const ttftDirect: number[] = [];
  const ttftParley: number[] = [];
  const ttftAddedByRound: number[][] = [];
  const rateDirect: number[] = [];
  const rateParley: number[] = [];
  const rateRatioByRound: number[][] = [];
  const answerRatios: number[] = [];
  const cpu = { direct: [] as CpuTime[], runtime: [] as CpuTime[], service: [] as CpuTime[], client: [] as CpuTime[] };
  let sameText = true;
  let tokens = 0;
  const promptTokens = { direct: new Set<number>(), parley: new Set<number>() };
  for (let round = 0; round < ROUNDS; round += 1) {
    // 1. Time to first token: a short answer.
    const added: number[] = [];
    for (let i = 0; i < TTFT_RUNS; i += 1) {
      const { direct: d, parley: p } = await pair(i, TTFT_TOKENS);
      ttftDirect.push(d.ttftMs);
      ttftParley.push(p.ttftMs);
      added.push(p.ttftMs - d.ttftMs);
    }
    ttftAddedByRound.push(added);
    // 2. Decode speed on a long answer (greedy: both must produce the same text).
    const ratios: number[] = [];
    for (let i = 0; i < THROUGHPUT_RUNS; i += 1) {
      const { direct: d, parley: p } = await pair(i, ANSWER_TOKENS, cpu);
      sameText &&= d.text === p.text;
      tokens = p.tokens;
      promptTokens.direct.add(d.promptTokens);
      promptTokens.parley.add(p.promptTokens);
      rateDirect.push(tokensPerSecond(d));
      rateParley.push(tokensPerSecond(p));
      ratios.push(tokensPerSecond(p) / tokensPerSecond(d));
      answerRatios.push(answerTokensPerSecond(p) / answerTokensPerSecond(d));
    }
    rateRatioByRound.push(ratios);
  }
  direct.stop();

  // 3. The service's event-loop delay while it streams answers (two at once), and idle as a baseline.
  await loopDelay(server.child, 'loop-delay-reset');
  await new Promise((r) => setTimeout(r, 2000));
  const idle = (await loopDelay(server.child, 'loop-delay-report'))!;
  await loopDelay(server.child, 'loop-delay-reset');
  const until = performance.now() + LOOP_SECONDS * 1000;
  let streamed = 0;
  await Promise.all(
    [0, 1].map(async () => {
      while (performance.now() < until) streamed += (await parleyRun(server.url, token, entry.id, ANSWER_TOKENS)).tokens;
    }),
  );
  const busy = (await loopDelay(server.child, 'loop-delay-report'))!;

  const ttftAdded = ttftAddedByRound.flat();
  const rateRatios = rateRatioByRound.flat();
  const signed = (n: number) => `${n >= 0 ? '+' : ''}${fmt(n)}`;
  /** Median, the middle half of the values, and each round's median. */
  const spread = (all: number[], rounds: number[][], show: (n: number) => string) =>
    `median ${show(median(all))} (middle half ${show(percentile(all, 25))} … ${show(percentile(all, 75))}; round medians ${rounds.map((r) => show(median(r))).join(' / ')})`;
  const ratio = (n: number) => `${fmt(n, 3)}×`;
  const cpuMs = (list: CpuTime[]) => `${fmt(median(list.map((c) => c.runMs)))} ms (waited ${fmt(median(list.map((c) => c.waitMs)))})`;
  console.log(`Built-in model benchmark — ${path.basename(modelPath)}, ${THREADS} thread(s), context ${contextSize}, node ${process.version}, ${os.availableParallelism()} cores, load ${fmt(loadAtStart)} at the start, ${fmt(os.loadavg()[0]!)} at the end`);
  console.log(`${ROUNDS} rounds of ${TTFT_RUNS} + ${THROUGHPUT_RUNS} paired runs (direct and Parley back to back, which goes first alternating)`);
  console.log(`time to first token (median of ${ttftDirect.length}, p90): direct ${fmt(median(ttftDirect))} ms (${fmt(percentile(ttftDirect, 90))}), Parley ${fmt(median(ttftParley))} ms (${fmt(percentile(ttftParley, 90))})`);
  console.log(`  added by Parley (paired differences, ms): ${spread(ttftAdded, ttftAddedByRound, signed)}  (target ≤ +5 ms: ${median(ttftAdded) <= 5 ? 'met' : 'NOT met'})`);
  const prompts = (set: Set<number>) => [...set].join('/');
  const samePrompt = promptTokens.direct.size === 1 && prompts(promptTokens.direct) === prompts(promptTokens.parley);
  console.log(`decode speed, first to last text (${tokens} tokens, prompt ${prompts(promptTokens.parley)} tokens${samePrompt ? ' on both sides' : `, direct ${prompts(promptTokens.direct)}: PROMPTS DIFFER`}${sameText ? ', same text' : ', TEXT DIFFERS'}): direct ${fmt(median(rateDirect), 0)} tok/s, Parley ${fmt(median(rateParley), 0)} tok/s`);
  console.log(`  ratio (paired): ${spread(rateRatios, rateRatioByRound, ratio)}  (target ≥ 0.95×: ${median(rateRatios) >= 0.95 ? 'met' : 'NOT met'})`);
  // The fastest run of each side: the one the machine disturbed least (most telling on a busy machine).
  const bestRatio = Math.max(...rateParley) / Math.max(...rateDirect);
  console.log(`  fastest run of each side: direct ${fmt(Math.max(...rateDirect), 0)} tok/s, Parley ${fmt(Math.max(...rateParley), 0)} tok/s, ${ratio(bestRatio)}; time to first token direct ${fmt(Math.min(...ttftDirect))} ms, Parley ${fmt(Math.min(...ttftParley))} ms (${signed(Math.min(...ttftParley) - Math.min(...ttftDirect))} ms)`);
  console.log(`  whole answer, first text to the end of the response (usage frame, saving, [DONE] included): ${ratio(median(answerRatios))}`);
  console.log(`  CPU per ${tokens}-token answer (median): direct process ${cpuMs(cpu.direct)}; Parley runtime ${cpuMs(cpu.runtime)}, service ${cpuMs(cpu.service)}, client ${cpuMs(cpu.client)}`);
  console.log(`service event-loop delay while streaming 2 answers for ${LOOP_SECONDS} s (${streamed} tokens): p50 ${fmt(busy.p50)} ms, p99 ${fmt(busy.p99)} ms, max ${fmt(busy.max)} ms; idle p99 ${fmt(idle.p99)} ms  (target p99 ≤ 20 ms: ${busy.p99 <= 20 ? 'met' : 'NOT met'})`);
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
