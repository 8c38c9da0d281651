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
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { writeTinyGguf } from '../test/fixtures/tiny-gguf';
import { median, percentile, startChild } from './lib/process';

const root = path.resolve(import.meta.dirname, '..');
const serverChild = path.join(root, 'bench', 'lib', 'server-child.ts');
const THREADS = Number(process.env.BENCH_THREADS ?? 1);
const TTFT_RUNS = Number(process.env.BENCH_TTFT_RUNS ?? 40);
const THROUGHPUT_RUNS = Number(process.env.BENCH_THROUGHPUT_RUNS ?? 8);
const ANSWER_TOKENS = Number(process.env.BENCH_ANSWER_TOKENS ?? 200);
/** A short answer for time to first token (long enough that its first piece is visible text). */
const TTFT_TOKENS = 8;
const LOOP_SECONDS = Number(process.env.BENCH_LOOP_SECONDS ?? 8);
const PROMPT = 'Tell me about the history of the world, the people in it and what they made.';

interface Run {
  ttftMs: number;
  /** When the last piece of text arrived (the end of decoding as a reader sees it). */
  lastTextMs: number;
  totalMs: number;
  tokens: number;
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
          const parsed = JSON.parse(frame.slice(6)) as { choices?: Array<{ delta?: { content?: string } }>; usage?: { completion_tokens: number }; error?: { message: string } };
          if (parsed.error) return reject(new Error(parsed.error.message));
          const piece = parsed.choices?.[0]?.delta?.content;
          if (piece) {
            lastTextMs = performance.now() - started;
            if (Number.isNaN(ttftMs)) ttftMs = lastTextMs;
            text += piece;
          }
          if (parsed.usage) tokens = parsed.usage.completion_tokens;
        }
      });
      res.on('end', () => resolve({ ttftMs, lastTextMs, totalMs: performance.now() - started, tokens, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** node-llama-cpp called directly, in its own process like Parley's runtime (bench/lib/direct-llama-child.ts). */
async function startDirect(modelPath: string, contextSize: number): Promise<{ run(maxTokens: number): Promise<Run>; stop(): void }> {
  const child = fork(path.join(root, 'bench', 'lib', 'direct-llama-child.ts'), [modelPath, String(THREADS), String(contextSize)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`the direct node-llama-cpp process exited with ${code}`)));
  });
  return {
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
const server = await startChild(['--import', 'tsx', serverChild, path.join(dataDir, 'data')], { PARLEY_LOG_LEVEL: 'warn', PARLEY_SECRET_STORE: 'file' }, { ipc: true }).catch((error: unknown) => {
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
  const contextSize = Math.min(entry.context_length as number, 8192);

  // The same model, context and threads, in a process of its own.
  const direct = await startDirect(modelPath, contextSize);

  // Warm both paths (model load in the runtime, JIT, template parsing).
  for (let i = 0; i < 5; i += 1) {
    await direct.run(8);
    await parleyRun(server.url, token, entry.id, 8);
  }

  // 1. Time to first token: a short answer, alternating so machine drift hits both.
  const ttftDirect: number[] = [];
  const ttftParley: number[] = [];
  for (let i = 0; i < TTFT_RUNS; i += 1) {
    ttftDirect.push((await direct.run(TTFT_TOKENS)).ttftMs);
    ttftParley.push((await parleyRun(server.url, token, entry.id, TTFT_TOKENS)).ttftMs);
  }

  // 2. Decode speed on a long answer (greedy: both must produce the same text).
  const rateDirect: number[] = [];
  const rateParley: number[] = [];
  const answerRateDirect: number[] = [];
  const answerRateParley: number[] = [];
  let sameText = true;
  let tokens = 0;
  for (let i = 0; i < THROUGHPUT_RUNS; i += 1) {
    const alone = await direct.run(ANSWER_TOKENS);
    const parley = await parleyRun(server.url, token, entry.id, ANSWER_TOKENS);
    sameText &&= alone.text === parley.text;
    tokens = parley.tokens;
    rateDirect.push(tokensPerSecond(alone));
    rateParley.push(tokensPerSecond(parley));
    answerRateDirect.push(answerTokensPerSecond(alone));
    answerRateParley.push(answerTokensPerSecond(parley));
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

  // Runs alternate, so each Parley run is compared with the direct run just before it.
  const ttftAdded = median(ttftParley.map((t, i) => t - ttftDirect[i]!));
  const rateRatio = median(rateParley.map((r, i) => r / rateDirect[i]!));
  console.log(`Built-in model benchmark — ${path.basename(modelPath)}, ${THREADS} thread(s), context ${contextSize}, node ${process.version}, ${os.availableParallelism()} cores, load ${os.loadavg()[0]!.toFixed(1)}`);
  console.log(`time to first token (median of ${TTFT_RUNS}, p90): direct ${fmt(median(ttftDirect))} ms (${fmt(percentile(ttftDirect, 90))}), Parley ${fmt(median(ttftParley))} ms (${fmt(percentile(ttftParley, 90))})`);
  console.log(`  added by Parley (median of paired differences): ${ttftAdded >= 0 ? '+' : ''}${fmt(ttftAdded)} ms  (target ≤ +5 ms: ${ttftAdded <= 5 ? 'met' : 'NOT met'})`);
  console.log(`decode speed (${tokens} tokens, median of ${THROUGHPUT_RUNS}): direct ${fmt(median(rateDirect), 0)} tok/s, Parley ${fmt(median(rateParley), 0)} tok/s${sameText ? ', same text' : ', TEXT DIFFERS'}`);
  console.log(`  ratio (median of paired ratios): ${fmt(rateRatio, 3)}×  (target ≥ 0.95×: ${rateRatio >= 0.95 ? 'met' : 'NOT met'})`);
  const answerRatio = median(answerRateParley.map((r, i) => r / answerRateDirect[i]!));
  console.log(`  whole answer, first text to the end of the response (usage frame, saving, [DONE] included): direct ${fmt(median(answerRateDirect), 0)} tok/s, Parley ${fmt(median(answerRateParley), 0)} tok/s, ${fmt(answerRatio, 3)}×`);
  console.log(`service event-loop delay while streaming 2 answers for ${LOOP_SECONDS} s (${streamed} tokens): p50 ${fmt(busy.p50)} ms, p99 ${fmt(busy.p99)} ms, max ${fmt(busy.max)} ms; idle p99 ${fmt(idle.p99)} ms  (target p99 ≤ 20 ms: ${busy.p99 <= 20 ? 'met' : 'NOT met'})`);
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
