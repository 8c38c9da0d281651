/**
 * Channels benchmark (`npm run bench:channels`), three rows against the targets:
 *
 * 1. Fan-out: a message posted to a channel of 50 connected members (50 socket.io clients in
 *    this process, the service in a child process): time from sending the POST until the last of
 *    the 50 has the `message` event; p50/p99 over BENCH_CHANNEL_MESSAGES messages (target p99 ≤ 50 ms).
 * 2. A model's answer streamed to 50 watchers: the service process's CPU time for one `@model`
 *    answer (a loopback fake provider streaming BENCH_CHANNEL_TOKENS pieces) in a channel where
 *    only the asker watches, against the same answer in the channel of 51 watchers, alternated;
 *    medians and their ratio (target ≤ 1.2: frames are gathered and sent to the room once each).
 * 3. Loading a channel's newest 50 messages with 100,000 messages in it (rows written straight
 *    into the database beside the running service): p50 of GET /messages?limit=50 (target
 *    ≤ 10 ms), beside the channel list (its unread counts walk the same index) and a search.
 *
 * Linux only for row 2 (CPU from /proc). Exits non-zero on an error, not on a missed target
 * (the machine is shared: say so instead).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { io, type Socket } from 'socket.io-client';
import type { ChannelEvent } from '../server/contracts/channels';
import { openDatabase, closeDatabase } from '../server/platform/db/knex';
import { cpuSince, cpuTime } from './lib/cpu-time';
import { median, percentile, startListening, startChild } from './lib/process';
import { fmt, table } from './lib/report';

const MESSAGES = Number(process.env.BENCH_CHANNEL_MESSAGES ?? 200);
const MEMBERS = 50;
const TOKENS = Number(process.env.BENCH_CHANNEL_TOKENS ?? 400);
const TOKEN_DELAY_MS = Number(process.env.BENCH_CHANNEL_TOKEN_DELAY ?? 4);
const ROUNDS = Number(process.env.BENCH_CHANNEL_ROUNDS ?? 5);
const BIG = Number(process.env.BENCH_CHANNEL_SIZE ?? 100_000);
const PAGE_RUNS = Number(process.env.BENCH_CHANNEL_PAGE_RUNS ?? 300);
const serverChild = path.join(import.meta.dirname, 'lib', 'server-child.ts');

async function json(url: string, method: string, body?: unknown, token?: string): Promise<any> {
  const res = await fetch(url, { method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** A member's socket, subscribed to their channels, calling `onEvent` for every channel frame. */
async function member(url: string, token: string, onEvent: (event: ChannelEvent) => void): Promise<Socket> {
  const socket = io(url, { transports: ['websocket'], reconnection: false, forceNew: true, auth: { token } });
  socket.on('channel-events', onEvent);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  await socket.timeout(5_000).emitWithAck('join-channels', {});
  return socket;
}

/** Progress on stderr (the table goes to stdout). */
const step = (what: string) => process.stderr.write(`[bench:channels] ${what}\n`);

step('starting the fake provider and the service');
const fake = await startListening('fake-provider-child.ts');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parley-bench-channels-'));
const server = await startChild(['--import', 'tsx', serverChild, dataDir], {
  PARLEY_LOG_LEVEL: 'warn',
  PARLEY_SECRET_STORE: 'file',
  PARLEY_COMPAT_BASE_URL: fake.url,
  PARLEY_COMPAT_API_KEY: 'sk-bench',
  PARLEY_CHANNEL_RATE_LIMIT: '0',
  PARLEY_SIGNUP_RATE_LIMIT: '0',
}).catch((error: unknown) => {
  fake.stop();
  rmSync(dataDir, { recursive: true, force: true });
  throw error;
});
const serverPid = server.child.pid as number;
const sockets: Socket[] = [];
let failed = false;

try {
  const url = server.url;
  const admin = await json(`${url}/api/v1/auths/signup`, 'POST', { name: 'Bench', email: 'bench@example.com', password: 'bench-password' });
  const token = admin.token as string;
  await json(`${url}/api/v1/auths/admin/config`, 'POST', { ENABLE_CHANNELS: true }, token);
  const tasks = await json(`${url}/api/v1/tasks/config`, 'GET', undefined, token);
  await json(`${url}/api/v1/tasks/config/update`, 'POST', { ...tasks, ENABLE_TITLE_GENERATION: false, ENABLE_TAGS_GENERATION: false, ENABLE_FOLLOW_UP_GENERATION: false, ENABLE_RETRIEVAL_QUERY_GENERATION: false }, token);
  const room = (await json(`${url}/api/v1/channels/create`, 'POST', { name: 'everyone' }, token)).id as string;
  const solo = (await json(`${url}/api/v1/channels/create`, 'POST', { name: 'solo', access_control: {} }, token)).id as string;

  step(`${MEMBERS} members connect`);
  // 50 members, each with a socket; arrivals of each message id are counted here.
  const arrivals = new Map<string, number[]>();
  const waiting = new Map<string, () => void>();
  const onMessage = (event: ChannelEvent) => {
    if (event.data.type !== 'message' || event.channel_id !== room || !event.message_id) return;
    const list = arrivals.get(event.message_id) ?? [];
    list.push(performance.now());
    arrivals.set(event.message_id, list);
    if (list.length === MEMBERS) waiting.get(event.message_id)?.();
  };
  for (let i = 0; i < MEMBERS; i += 1) {
    const user = await json(`${url}/api/v1/auths/add`, 'POST', { name: `Member ${i}`, email: `member${i}@example.com`, password: `member-password-${i}`, role: 'user' }, token);
    sockets.push(await member(url, user.token as string, onMessage));
  }
  // The asker watches both channels (admins read every channel).
  const finished = new Map<string, () => void>();
  const adminSocket = await member(url, token, (event) => {
    const data = event.data.data as { meta?: { model_id?: string; status?: string } } | null;
    if (event.data.type === 'message:update' && data?.meta?.model_id && data.meta.status !== 'streaming') finished.get(event.channel_id)?.();
  });
  sockets.push(adminSocket);

  step(`fan-out: ${MESSAGES} messages`);
  // 1. Fan-out to 50 members.
  const post = (channel: string, content: string) => json(`${url}/api/v1/channels/${channel}/messages/post`, 'POST', { content }, token);
  const fanOut = async (text: string) => {
    const started = performance.now();
    const posted = post(room, text);
    const id = ((await posted) as { id: string }).id;
    if ((arrivals.get(id)?.length ?? 0) < MEMBERS) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`message ${id} reached ${arrivals.get(id)?.length ?? 0} of ${MEMBERS} members in 5 s`)), 5_000);
        waiting.set(id, () => (clearTimeout(timer), resolve()));
      });
    }
    waiting.delete(id);
    const times = arrivals.get(id)!;
    arrivals.delete(id);
    return { last: Math.max(...times) - started, each: times.map((t) => t - started) };
  };
  for (let i = 0; i < 20; i += 1) await fanOut(`warm-up ${i}`);
  const lastArrivals: number[] = [];
  const eachArrival: number[] = [];
  for (let i = 0; i < MESSAGES; i += 1) {
    const { last, each } = await fanOut(`Message ${i}: the plan for today is on the board.`);
    lastArrivals.push(last);
    eachArrival.push(...each);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }

  step(`model answers: ${ROUNDS} rounds`);
  // 2. A model's answer to one watcher and to 51, alternated; the service's CPU per answer.
  const answer = async (channel: string) => {
    const done = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(async () => {
        const seen = await json(`${url}/api/v1/channels/${channel}/messages?limit=3`, 'GET', undefined, token).catch((e: unknown) => String(e));
        reject(new Error(`no finished answer within 60 s; newest messages: ${JSON.stringify(seen).slice(0, 1500)}`));
      }, 60_000);
      finished.set(channel, () => (clearTimeout(timer), resolve()));
    });
    const before = cpuTime(serverPid);
    const started = performance.now();
    await post(channel, `@bench-model bench tokens=${TOKENS} delay=${TOKEN_DELAY_MS}`);
    await done;
    return { cpu: cpuSince(before, cpuTime(serverPid)).runMs, ms: performance.now() - started };
  };
  await answer(solo);
  await answer(room);
  const one: Array<{ cpu: number; ms: number }> = [];
  const many: Array<{ cpu: number; ms: number }> = [];
  for (let i = 0; i < ROUNDS; i += 1) {
    one.push(await answer(solo));
    many.push(await answer(room));
  }
  const cpuOne = median(one.map((r) => r.cpu));
  const cpuMany = median(many.map((r) => r.cpu));

  step(`${BIG} messages in one channel`);
  // 3. 100,000 messages in one channel, written straight into the database beside the service.
  const big = (await json(`${url}/api/v1/channels/create`, 'POST', { name: 'archive' }, token)).id as string;
  const db = openDatabase(dataDir);
  const seededStarted = performance.now();
  try {
    const start = Date.now() - BIG * 1_000;
    const rows = Array.from({ length: BIG }, (_, i) => ({
      id: `bench-${i.toString().padStart(7, '0')}`,
      channel_id: big,
      user_id: admin.id,
      parent_id: null,
      content: `Archived message ${i}: notes from meeting ${i % 97} about topic ${i % 13}.`,
      data: null,
      meta: null,
      created_at: start + i * 1_000,
      updated_at: start + i * 1_000,
    }));
    // SQLite takes at most 500 rows in one multi-row insert (knex writes it as a compound SELECT).
    await db.batchInsert('channel_messages', rows, 400);
  } finally {
    await closeDatabase(db);
  }
  const seededMs = performance.now() - seededStarted;
  const timed = async (path: string, runs: number) => {
    const times: number[] = [];
    for (let i = 0; i < runs; i += 1) {
      const started = performance.now();
      const res = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`${path}: ${res.status}`);
      times.push(performance.now() - started);
    }
    return times;
  };
  await timed(`/api/v1/channels/${big}/messages?limit=50`, 30);
  const pageTimes = await timed(`/api/v1/channels/${big}/messages?limit=50`, PAGE_RUNS);
  const deepTimes = await timed(`/api/v1/channels/${big}/messages?skip=5000&limit=50`, 50);
  const listTimes = await timed('/api/v1/channels/', 100);
  const searchTimes = await timed(`/api/v1/channels/search?query=${encodeURIComponent('meeting 42 topic')}`, 20);

  const p99 = percentile(lastArrivals, 99);
  const ratio = cpuMany / cpuOne;
  const page50 = median(pageTimes);
  const verdict = (ok: boolean) => (ok ? 'yes' : 'NO');
  table(
    `Channels on this machine (${os.cpus().length} cores): ${MEMBERS} members, ${MESSAGES} messages; answers of ${TOKENS} pieces every ${TOKEN_DELAY_MS} ms, ${ROUNDS} rounds; ${BIG.toLocaleString('en')} messages seeded in ${fmt(seededMs / 1000, 1)} s; load average ${os.loadavg().map((l) => fmt(l, 1)).join(', ')}`,
    ['row', 'measure', 'p50', 'p99', 'target', 'holds'],
    [
      ['message reaches all 50 members', 'ms from POST to the last member', fmt(median(lastArrivals)), fmt(p99), 'p99 ≤ 50', verdict(p99 <= 50)],
      ['  each delivery', 'ms from POST to a member', fmt(median(eachArrival)), fmt(percentile(eachArrival, 99)), '', ''],
      ['model answer, 1 watcher', 'service CPU ms per answer (median)', fmt(cpuOne), '', '', ''],
      ['model answer, 51 watchers', 'service CPU ms per answer (median)', fmt(cpuMany), '', '', ''],
      ['  ratio', '51 watchers ÷ 1 watcher', fmt(ratio), '', '≤ 1.2', verdict(ratio <= 1.2)],
      ['  answer time', 'ms, 1 / 51 watchers (median)', `${fmt(median(one.map((r) => r.ms)), 0)} / ${fmt(median(many.map((r) => r.ms)), 0)}`, '', '', ''],
      [`newest 50 of ${BIG.toLocaleString('en')}`, 'ms per GET /messages?limit=50', fmt(page50), fmt(percentile(pageTimes, 99)), 'p50 ≤ 10', verdict(page50 <= 10)],
      ['  50 at skip=5000', 'ms per GET', fmt(median(deepTimes)), fmt(percentile(deepTimes, 99)), '', ''],
      ['  channel list', 'ms per GET /channels/ (unread counts)', fmt(median(listTimes)), fmt(percentile(listTimes, 99)), '', ''],
      ['  search, 3 words', 'ms per GET /channels/search', fmt(median(searchTimes)), fmt(percentile(searchTimes, 99)), '', ''],
    ],
  );
} catch (error) {
  failed = true;
  console.error(String(error instanceof Error ? (error.stack ?? error.message) : error).slice(0, 2_000));
} finally {
  for (const socket of sockets) socket.disconnect();
  await server.stop();
  fake.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
