/**
 * Chat search benchmark: one user with BENCH_CHATS chats (default 10,000) × BENCH_MESSAGES messages
 * (default 50), then `GET /api/v1/chats/search` for rare, common, multi-word, prefix and tag queries,
 * side by side with `GET /api/v1/chats` (one list page through the same HTTP stack) as the control,
 * then the same queries on the fallback path (FTS5 tables dropped, as on a database without FTS5:
 * the in-memory word index), and the time of the first fallback search, which builds that index.
 * Run with `npm run bench:chat-search`. Target: p50 ≤ 50 ms for every query.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from '../server';
import { openDatabase } from '../server/platform/db/knex';
import { memorySecretStore } from '../server/secrets';
import { median, percentile } from './lib/process';

const CHATS = Number(process.env.BENCH_CHATS ?? 10_000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 50);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parley-bench-search-'));
const secrets = memorySecretStore();
const options = { host: '127.0.0.1', port: 0, dataDir, secrets, logLevel: 'warn' as const, logToStdout: false, rendererDir: path.join(dataDir, 'none') };

// A deterministic vocabulary: 3,000 made-up words, drawn with a skewed distribution so some are common.
let seed = 42;
const rand = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
const syllables = ['ka', 'lo', 'mi', 'ne', 'su', 'ta', 'ri', 'po', 'de', 'fa', 'gu', 'ho', 'ji', 'be', 'wa', 'zo'];
const vocabulary = Array.from({ length: 3000 }, (_, i) => `${syllables[i % 16]}${syllables[Math.floor(i / 16) % 16]}${syllables[Math.floor(i / 256) % 16]}`);
const word = () => vocabulary[Math.floor(rand() ** 2 * vocabulary.length)]!;
function sentence(i: number): string {
  const words = Array.from({ length: 30 }, word);
  if (i % 100 === 0) words.push('zebra'); // 1% of messages
  if (i % 2 === 0) words.push('common'); // half of them
  if (i % 5000 === 0) words.push('needle'); // 0.02%
  return words.join(' ');
}

// 1. Create the account through the service, then fill the database directly (the bench measures search, not inserts).
let server = await startServer(options);
const signup = await fetch(`${server.url}/api/v1/auths/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Bench', email: 'bench@example.com', password: 'bench-password' }) });
const { token, id: userId } = (await signup.json()) as { token: string; id: string };
await server.close();

const db = openDatabase(dataDir);
const fillStarted = performance.now();
const now = Math.floor(Date.now() / 1000);
let n = 0;
for (let c = 0; c < CHATS; c += 200) {
  await db.transaction(async (trx) => {
    const chats = [];
    const messages = [];
    for (let k = c; k < Math.min(CHATS, c + 200); k += 1) {
      const id = `chat-${k}`;
      chats.push({ id, user_id: userId, title: `${word()} ${word()} ${k % 1000 === 0 ? 'zebra' : ''}`.trim(), pinned: false, archived: false, folder_id: null, current_message_id: `m-${k}-${MESSAGES - 1}`, tags: k % 10 === 0 ? '["work"]' : '[]', share_id: null, created_at: now - k, updated_at: now - k, activity_ms: (now - k) * 1000 });
      for (let m = 0; m < MESSAGES; m += 1) {
        messages.push({ id: `m-${k}-${m}`, chat_id: id, parent_id: m === 0 ? null : `m-${k}-${m - 1}`, role: m % 2 === 0 ? 'user' : 'assistant', content: sentence(n++), model: null, status: 'complete', created_at: now - k, updated_at: now - k, seq: m + 1 });
      }
    }
    await trx.batchInsert('chats', chats, 200);
    await trx.batchInsert('chat_messages', messages, 100);
  });
}
await db.raw('ANALYZE');
await db.destroy();
const fillMs = performance.now() - fillStarted;

// 2. Measure through HTTP.
const loadBefore = os.loadavg().map((l) => l.toFixed(2)).join(' ');
server = await startServer(options);
/** Wall time, and CPU time of this process (client, service and SQLite's threads: what other work on the machine does not inflate). */
async function time(pathAndQuery: string): Promise<{ p50: number; p95: number; cpu: number; hits: number }> {
  const times: number[] = [];
  const cpu: number[] = [];
  let hits = 0;
  for (let i = 0; i < RUNS + 3; i += 1) {
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    const res = await fetch(`${server.url}${pathAndQuery}`, { headers: { authorization: `Bearer ${token}` } });
    const body = (await res.json()) as unknown[];
    if (res.status !== 200) throw new Error(`${pathAndQuery}: ${res.status} ${JSON.stringify(body)}`);
    if (i >= 3) {
      times.push(performance.now() - started);
      const used = process.cpuUsage(cpuStarted);
      cpu.push((used.user + used.system) / 1000);
    }
    hits = body.length;
  }
  return { p50: median(times), p95: percentile(times, 95), cpu: median(cpu), hits };
}

const queries: Array<[string, string]> = [
  ['rare word (0.02% of messages)', 'needle'],
  ['word in 1% of messages', 'zebra'],
  ['word in 50% of messages', 'common'],
  ['two words', 'zebra common'],
  ['prefix while typing', 'zeb'],
  ['tag filter only', 'tag:work'],
  ['word + tag + date', `zebra tag:work after:2000-01-01`],
  ['no match', 'qqqqqq'],
  ['page 20 of a common word', 'common&page=20'],
];
const searchPath = (text: string) => {
  const [q, extra] = text.split('&');
  return `/api/v1/chats/search?text=${encodeURIComponent(q!)}${extra ? `&${extra}` : ''}`;
};

type Timing = { p50: number; p95: number; cpu: number; hits: number };
const control = await time('/api/v1/chats?page=1');
const withFts: Timing[] = [];
for (const [, text] of queries) withFts.push(await time(searchPath(text)));
await server.close();

// 3. The same queries on the fallback path: what a database without FTS5 gets (tables and triggers dropped).
const plain = openDatabase(dataDir);
for (const trigger of ['chat_messages_fts_ai', 'chat_messages_fts_ad', 'chat_messages_fts_au', 'chats_fts_ai', 'chats_fts_ad', 'chats_fts_au']) await plain.raw(`DROP TRIGGER IF EXISTS ${trigger}`);
await plain.raw('DROP TABLE IF EXISTS chat_messages_fts');
await plain.raw('DROP TABLE IF EXISTS chats_fts');
await plain.destroy();
server = await startServer(options);
// The first word search reads every message into the in-memory word index; later ones only re-read changed chats.
const firstStarted = performance.now();
await (await fetch(`${server.url}${searchPath('zebra')}`, { headers: { authorization: `Bearer ${token}` } })).json();
const indexBuildMs = performance.now() - firstStarted;
const fallback: Timing[] = [];
for (const [, text] of queries) fallback.push(await time(searchPath(text)));

console.log(`\nChat search, ${CHATS.toLocaleString()} chats × ${MESSAGES} messages (${(CHATS * MESSAGES).toLocaleString()} messages, filled in ${(fillMs / 1000).toFixed(1)} s), ${RUNS} runs each, ${os.cpus().length} cores, Node ${process.version}`);
console.log(`load average before / after the measurements: ${loadBefore} / ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.log(`list page (control): p50 ${control.p50.toFixed(1)} ms, p95 ${control.p95.toFixed(1)} ms, CPU p50 ${control.cpu.toFixed(1)} ms\n`);
console.log('| query                          | FTS5 p50 | FTS5 p95 | FTS5 CPU p50 | hits | fallback p50 | fallback p95 | hits | FTS5 target p50 ≤ 50 ms |');
console.log('|--------------------------------|----------|----------|--------------|------|--------------|--------------|------|-------------------------|');
let worst = 0;
let worstFallback = 0;
for (const [i, [name]] of queries.entries()) {
  const f = withFts[i]!;
  const l = fallback[i]!;
  worst = Math.max(worst, f.p50);
  worstFallback = Math.max(worstFallback, l.p50);
  console.log(`| ${name.padEnd(30)} | ${f.p50.toFixed(1).padStart(8)} | ${f.p95.toFixed(1).padStart(8)} | ${f.cpu.toFixed(1).padStart(12)} | ${String(f.hits).padStart(4)} | ${l.p50.toFixed(1).padStart(12)} | ${l.p95.toFixed(1).padStart(12)} | ${String(l.hits).padStart(4)} | ${(f.p50 <= 50 ? 'met' : 'MISSED').padEnd(23)} |`);
}
await server.close();
if (process.env.BENCH_KEEP) console.log(`data kept in ${dataDir}`);
else rmSync(dataDir, { recursive: true, force: true });
console.log(`fallback: the first word search (builds the in-memory word index) took ${indexBuildMs.toFixed(0)} ms, heap ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB after`);
console.log(`\nworst p50: FTS5 ${worst.toFixed(1)} ms, fallback ${worstFallback.toFixed(1)} ms`);
