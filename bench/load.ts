/**
 * Load benchmark: 50 concurrent simulated LAN users (sign in, list chats, stream completions
 * saved into their chat from a loopback fake provider, upload small files) for 20 seconds.
 * A bare Express handler in a process of its own is measured first with the same concurrency,
 * and the figures are printed as ratios against it; the service is the built one (dist/), also in
 * a process of its own, and its peak RSS must stay within 1.5x the bare process's peak.
 * Run with `npm run bench:load` (BENCH_LOAD_USERS / BENCH_LOAD_SECONDS change the size; BENCH_LOAD_SECONDS=0 skips this
 * phase). Then chat time to first token is measured idle and while every user signs in at once,
 * over and over (BENCH_SIGNIN_SECONDS each, 0 skips): the target is p99 within 2x of idle.
 * With BENCH_LOAD_INSTANCES=2 the same load runs instead against a throwaway PostgreSQL cluster:
 * one service process, then two on the same database, both behind a round-robin proxy, printed
 * as one table beside the bare Express control (bench/lib/instances-load.ts).
 * BENCH_SERVICE_NODE_FLAGS passes Node and V8 flags to the service process only (memory experiments);
 * PARLEY_HEAP=fast runs the service with V8's own heap growth instead of the default `small`.
 * Exits non-zero on any error.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeInstancesRows, runInstancesComparison } from './lib/instances-load';
import { createAccounts, percentileOf, runLoad, type LoadAccount } from './lib/load-users';
import { addPhase, describeTtft, emptyPhase, ttftPhase } from './lib/signin-burst';
import { rssMb, startChild } from './lib/process';
import { startFakeOpenAI } from '../test/fixtures/fake-openai';
import { createClient } from '../test/helpers/client';

const USERS = Number(process.env.BENCH_LOAD_USERS ?? 50);
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 20);
/** Length of each sign-in phase (idle, then under sign-in bursts); 0 skips them. */
const SIGNIN_SECONDS = Number(process.env.BENCH_SIGNIN_SECONDS ?? 5);
/** Idle and loaded phases alternate this many times. */
const SIGNIN_ROUNDS = 5;
/** 2: compare one and two service processes on PostgreSQL instead of the SQLite run. */
const INSTANCES = Number(process.env.BENCH_LOAD_INSTANCES ?? 1);
/** Users chatting during the sign-in phases. */
const CHATTERS = 5;
const root = path.resolve(import.meta.dirname, '..');

/** Peak RSS budget of the load run: Parley's peak over the bare run's peak, same process and clients. */
const PEAK_RSS_BUDGET = 1.5;

/** Samples a process's RSS every 100 ms until stopped; returns the highest value in MB. */
function peakRss(pid: number): () => number {
  let peak = rssMb(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 100);
  return () => {
    clearInterval(sampler);
    return Math.max(peak, rssMb(pid));
  };
}

/**
 * p50/p99 of a bare Express JSON handler under `USERS` concurrent loops for a few seconds, and its
 * peak RSS meanwhile: "bare" is a Node process of its own serving one Express route
 * (bench/lib/bare-json.mjs), started and loaded like the service, so both RSS figures are one
 * server process's and the load clients count on neither side.
 */
async function bareExpress(): Promise<{ p50: number; p99: number; rssMb: number }> {
  const bare = await startChild([path.join(root, 'bench/lib/bare-json.mjs')]);
  const url = `${bare.url}/chats`;
  const latencies: number[] = [];
  const deadline = performance.now() + Math.max(1, Math.min(5, SECONDS)) * 1000;
  const stopSampling = peakRss(bare.child.pid as number);
  await Promise.all(
    Array.from({ length: USERS }, async () => {
      while (performance.now() < deadline) {
        const started = performance.now();
        await (await fetch(url)).text();
        latencies.push(performance.now() - started);
      }
    }),
  );
  const peak = stopSampling();
  await bare.stop();
  return { p50: percentileOf(latencies, 50), p99: percentileOf(latencies, 99), rssMb: peak };
}

/** Prints chat TTFT idle and under bursts of simultaneous sign-ins; returns the number of errors. */
async function signinRows(url: string, accounts: LoadAccount[]): Promise<number> {
  const chatters = await Promise.all(
    accounts.slice(0, CHATTERS).map(async (account, i) => {
      const signin = await fetch(`${url}/api/v1/auths/signin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(account) });
      const token = ((await signin.json()) as { token: string }).token;
      const chat = await fetch(`${url}/api/v1/chats/new`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ title: `ttft ${i}` }) });
      return { token, chatId: ((await chat.json()) as { id: string }).id };
    }),
  );
  // Warm-up (first token checks, first queries), then idle and loaded phases interleaved so drift
  // in what else the machine runs hits both alike.
  await ttftPhase(url, chatters, { seconds: 1, model: 'gpt-fake' });
  const idle = emptyPhase();
  const loaded = emptyPhase();
  for (let i = 0; i < SIGNIN_ROUNDS; i += 1) {
    addPhase(idle, await ttftPhase(url, chatters, { seconds: SIGNIN_SECONDS / SIGNIN_ROUNDS, model: 'gpt-fake' }));
    addPhase(loaded, await ttftPhase(url, chatters, { seconds: SIGNIN_SECONDS / SIGNIN_ROUNDS, model: 'gpt-fake', burst: accounts }));
  }
  const a = describeTtft(idle);
  const b = describeTtft(loaded);
  const ratio = b.p99 / a.p99;
  console.log(`chat TTFT (${CHATTERS} users streaming into their chats, ${SIGNIN_SECONDS} s each)`);
  console.log(`  idle                          n=${String(idle.samples.length).padStart(5)}  p50 ${a.p50.toFixed(1).padStart(6)} ms  p99 ${a.p99.toFixed(1).padStart(6)} ms`);
  console.log(`  while ${String(accounts.length).padStart(3)} users sign in at once n=${String(loaded.samples.length).padStart(5)}  p50 ${b.p50.toFixed(1).padStart(6)} ms  p99 ${b.p99.toFixed(1).padStart(6)} ms  (${loaded.signins} sign-ins, ${(loaded.signins / SIGNIN_SECONDS).toFixed(0)}/s; ${loaded.refused} refused at once with 429)`);
  console.log(`  p99 with sign-ins / idle      ${ratio.toFixed(2)}x  (target <= 2x: ${ratio <= 2 ? 'met' : 'NOT met'}; phases interleaved ${SIGNIN_ROUNDS}x)`);
  const errors = [...idle.errors, ...loaded.errors];
  for (const e of errors.slice(0, 10)) console.log(`error: ${e}`);
  return errors.length;
}

/** One vs two instances on one PostgreSQL database, each behind a round-robin proxy. */
async function instancesMain(): Promise<void> {
  const bare = await bareExpress();
  const openai = await startFakeOpenAI({ models: ['gpt-fake'] });
  openai.reply({ text: 'A short answer of about a dozen words streamed back to the user.' });
  try {
    const rows = await runInstancesComparison({ users: USERS, seconds: SECONDS, ttftSeconds: SIGNIN_SECONDS, chatters: CHATTERS, providerUrl: openai.url, model: 'gpt-fake' });
    console.log(`bench:load  ${USERS} users x ${SECONDS} s, then TTFT of ${CHATTERS} users x ${SIGNIN_SECONDS} s  (services as child processes on one PostgreSQL; clients, proxy and fake provider in this process)`);
    for (const line of describeInstancesRows(rows, bare)) console.log(line);
    const errors = rows.flatMap((row) => row.result.errors);
    for (const e of errors.slice(0, 10)) console.log(`error: ${e}`);
    process.exitCode = errors.length + rows.reduce((n, row) => n + row.ttft.errors, 0) === 0 ? 0 : 1;
  } finally {
    await openai.close();
  }
}

async function main(): Promise<void> {
  const bare = await bareExpress();
  const openai = await startFakeOpenAI({ models: ['gpt-fake'] });
  openai.reply({ text: 'A short answer of about a dozen words streamed back to the user.' });
  // The built service (npm run bench:load builds it first) in a process of its own, as people run it.
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parley-bench-load-'));
  // Node or V8 flags for the service process only (memory experiments: BENCH_SERVICE_NODE_FLAGS="--max-semi-space-size=4").
  const nodeFlags = (process.env.BENCH_SERVICE_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
  const server = await startChild([...nodeFlags, path.join(root, 'dist/server/cli.js'), '--port', '0', '--data-dir', dataDir], {
    PARLEY_LOG_LEVEL: 'warn',
    PARLEY_SECRET_STORE: 'file',
    PARLEY_SIGNIN_RATE_LIMIT: '0',
    PARLEY_V1_RATE_LIMIT: '0',
    PARLEY_SIGNUP_RATE_LIMIT: '0',
  });
  const pid = server.child.pid as number;
  try {
    const signup = await createClient(server.url).post('/api/v1/auths/signup', { name: 'Admin', email: 'admin@example.com', password: 'admin-password' });
    const adminToken = signup.body.token as string;
    await createClient(server.url, adminToken).post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
    const accounts = await createAccounts(server.url, adminToken, USERS);
    const rssBefore = rssMb(pid);
    const stopSampling = peakRss(pid);
    const result = SECONDS > 0 ? await runLoad(server.url, accounts, { seconds: SECONDS, model: 'gpt-fake' }) : { requests: 0, errors: [], signinRetries: 0, latencies: { signin: [], list: [], stream: [], upload: [] } };
    const rssPeak = stopSampling();
    const rssAfter = rssMb(pid);

    const row = (name: string, values: number[]) => {
      const p50 = percentileOf(values, 50);
      const p99 = percentileOf(values, 99);
      return `${name.padEnd(8)} n=${String(values.length).padStart(6)}  p50 ${p50.toFixed(1).padStart(7)} ms (${(p50 / bare.p50).toFixed(1)}x bare)  p99 ${p99.toFixed(1).padStart(7)} ms (${(p99 / bare.p99).toFixed(1)}x bare)`;
    };
    console.log(`bench:load  ${USERS} users x ${SECONDS} s  (the built service and the bare app each in a process of their own; clients and fake provider in this one)`);
    console.log(`bare      p50 ${bare.p50.toFixed(2)} ms  p99 ${bare.p99.toFixed(2)} ms  peak rss ${bare.rssMb.toFixed(0)} MB  (load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')})`);
    for (const op of ['signin', 'list', 'stream', 'upload'] as const) console.log(row(op, result.latencies[op]));
    console.log(`requests  ${result.requests} (${(result.requests / SECONDS).toFixed(0)}/s)  errors ${result.errors.length}  sign-ins asked to retry (429, Retry-After) ${result.signinRetries}`);
    const peakRatio = rssPeak / bare.rssMb;
    const peakMet = peakRatio <= PEAK_RSS_BUDGET;
    console.log(`service rss  before ${rssBefore.toFixed(0)} MB  peak ${rssPeak.toFixed(0)} MB  after ${rssAfter.toFixed(0)} MB  (peak ${peakRatio.toFixed(2)}x bare peak; budget <= ${PEAK_RSS_BUDGET}x: ${peakMet ? 'met' : 'EXCEEDED'})`);
    for (const e of result.errors.slice(0, 10)) console.log(`error: ${e}`);
    const signinErrors = SIGNIN_SECONDS > 0 ? await signinRows(server.url, accounts) : 0;
    process.exitCode = result.errors.length + signinErrors === 0 && peakMet ? 0 : 1;
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
    await openai.close();
  }
}

if (INSTANCES !== 1 && INSTANCES !== 2) throw new Error(`BENCH_LOAD_INSTANCES must be 1 or 2, not ${process.env.BENCH_LOAD_INSTANCES}`);
await (INSTANCES === 2 ? instancesMain() : main());
