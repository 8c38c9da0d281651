/**
 * Notes and memories benchmark (`npm run bench:notes`), measured side by side in one run:
 *
 * 1. Memory recall: time to first token of /api/chat/completions with `features: {memory: true}`
 *    against the same request without it, for a person with 1,000 memories (embedded when
 *    written, offline embedder), alternating so drift hits both. Target: ≤ 3 ms added at p50.
 * 2. Note search over 10,000 notes (60 people, groups, shared and public notes), in process:
 *    one index per language filtered by the caller's access tags (what Parley ships) against one
 *    index per person holding only what they may read (the alternative), for search time, build
 *    time and postings held. Target: p50 ≤ 10 ms.
 * 3. Note search end to end: GET /api/v1/notes/search on the service with the same 10,000 notes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { accessTags, callerTags, createNotesCatalog } from '../server/notes/notes-catalog';
import type { NoteIndexRow } from '../server/notes/notes.repo';
import { RecordIndex } from '../server/retrieval';
import { median, percentile, startChild, startListening } from './lib/process';
import { fmt, table } from './lib/report';

const root = path.resolve(import.meta.dirname, '..');
const NOTES = Number(process.env.BENCH_NOTES ?? 10_000);
const MEMORIES = Number(process.env.BENCH_MEMORIES ?? 1_000);
const TTFT_RUNS = Number(process.env.BENCH_TTFT_RUNS ?? 200);
const SEARCH_RUNS = Number(process.env.BENCH_SEARCH_RUNS ?? 300);
const PEOPLE = 60;

/** A deterministic pseudo-random generator (the same notes every run). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const random = rng(42);
const WORDS = (
  'budget meeting plan release customer invoice project design review travel train hotel lyon paris berlin recipe flour butter ' +
  'garden apple tree school lesson exam vocabulary server database backup migration network printer office coffee lunch ' +
  'hiring interview salary contract lawyer tax insurance doctor appointment marathon training swimming holiday camping ' +
  'birthday party gift wedding music guitar piano concert movie book novel chapter draft idea roadmap quarter goals metrics'
).split(' ');
const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
const sentence = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');

const people = Array.from({ length: PEOPLE }, (_, i) => `user-${i}`);
const groupsOf = new Map(people.map((p, i) => [p, [`group-${i % 6}`, ...(i % 4 === 0 ? ['group-all'] : [])]]));

/** 10,000 notes: each person's own, a fifth shared with a group or a colleague, one in twenty public. */
function makeNotes(): NoteIndexRow[] {
  return Array.from({ length: NOTES }, (_, i) => {
    const owner = pick(people);
    const roll = random();
    const access = roll < 0.05 ? null : roll < 0.15 ? { read: { group_ids: [`group-${i % 6}`] } } : roll < 0.22 ? { write: { user_ids: [pick(people)] } } : {};
    const md = Array.from({ length: 3 + Math.floor(random() * 8) }, () => `${sentence(12)}.`).join('\n');
    return { id: `note-${String(i).padStart(6, '0')}`, user_id: owner, title: sentence(3), data: JSON.stringify({ content: { md } }), access_control: access === null ? null : JSON.stringify(access), language: 'english', created_at: 1_800_000_000 + i, updated_at: 1_800_000_000 + i };
  });
}

function timeSearches(queries: string[], run: (q: string) => unknown): number[] {
  const times: number[] = [];
  for (let i = 0; i < SEARCH_RUNS; i += 1) {
    const q = queries[i % queries.length]!;
    const started = performance.now();
    run(q);
    times.push(performance.now() - started);
  }
  return times;
}

async function noteSearchInProcess(notes: NoteIndexRow[]): Promise<Array<Array<string | number>>> {
  const repo = {
    indexPage: async (after: string | null, limit: number) => notes.filter((n) => after === null || n.id > after).slice(0, limit),
    findMany: async (ids: readonly string[]) => notes.filter((n) => ids.includes(n.id)).map((n) => ({ ...n, meta: null, version: 1 })),
  };
  const queries = ['budget meeting', 'train to lyon', 'recipe flour butter', 'server backup migration', 'quarter goals', 'piano', 'doctor appointment tax'];

  let started = performance.now();
  const catalog = createNotesCatalog(repo);
  await catalog.warm();
  const filteredBuild = performance.now() - started;
  const person = { id: people[7]!, role: 'user' as const, groupIds: groupsOf.get(people[7]!)! };
  const tags = callerTags(person)!;
  for (const q of queries) await catalog.search(q, tags, 60); // warm
  const filtered: number[] = [];
  for (let i = 0; i < SEARCH_RUNS; i += 1) {
    const q = queries[i % queries.length]!;
    const t0 = performance.now();
    await catalog.search(q, tags, 60);
    filtered.push(performance.now() - t0);
  }
  const admin: number[] = [];
  for (let i = 0; i < SEARCH_RUNS; i += 1) {
    const q = queries[i % queries.length]!;
    const t0 = performance.now();
    await catalog.search(q, undefined, 60);
    admin.push(performance.now() - t0);
  }

  // The alternative: one index per person with exactly the notes they may read (shared notes copied into each).
  started = performance.now();
  const perPerson = new Map<string, RecordIndex>();
  let copies = 0;
  for (const p of people) {
    const held = new Set(callerTags({ id: p, role: 'user', groupIds: groupsOf.get(p)! }));
    const index = RecordIndex.create();
    for (const note of notes) {
      const access = note.access_control === null ? null : (JSON.parse(note.access_control) as Parameters<typeof accessTags>[1]);
      if (!accessTags(note.user_id, access).some((t) => held.has(t))) continue;
      index.put({ key: note.id, text: `${note.title}\n${note.title}\n${(JSON.parse(note.data!) as { content: { md: string } }).content.md}` });
      copies += 1;
    }
    perPerson.set(p, index);
  }
  const perPersonBuild = performance.now() - started;
  const own = perPerson.get(person.id)!;
  timeSearches(queries, (q) => own.search({ text: q, limit: 60 }));
  const perPersonTimes = timeSearches(queries, (q) => own.search({ text: q, limit: 60 }));

  return [
    ['one index per language, filtered by access (shipped)', fmt(median(filtered)), fmt(percentile(filtered, 95)), fmt(filteredBuild, 0), NOTES],
    ['  … as an admin (no filter)', fmt(median(admin)), fmt(percentile(admin, 95)), '', ''],
    ['one index per person (alternative)', fmt(median(perPersonTimes)), fmt(percentile(perPersonTimes, 95)), fmt(perPersonBuild, 0), copies],
  ];
}

async function json(url: string, method: string, body: unknown, token?: string): Promise<any> {
  const res = await fetch(url, { method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Time to the first text of a streamed completion. */
async function ttft(url: string, token: string, body: unknown): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
  if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
  let first = NaN;
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    if (Number.isNaN(first) && /"content":"[^"]/.test(decoder.decode(chunk))) first = performance.now() - started;
  }
  return first;
}

/** Runs `work` over `items`, `width` at a time. */
async function inParallel<T>(items: readonly T[], width: number, work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
}

const notes = makeNotes();
const inProcess = await noteSearchInProcess(notes);
table(`Note search over ${NOTES.toLocaleString('en')} notes, ${PEOPLE} people, in process (ms; target p50 ≤ 10)`, ['engine', 'p50', 'p95', 'build ms', 'documents held'], inProcess);

const provider = await startListening('fake-provider-child.ts');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parley-bench-notes-'));
const server = await startChild(['--import', 'tsx', path.join(root, 'bench', 'lib', 'server-child.ts'), dataDir], {
  PARLEY_LOG_LEVEL: 'warn',
  PARLEY_SECRET_STORE: 'file',
  PARLEY_COMPAT_BASE_URL: provider.url,
  PARLEY_COMPAT_API_KEY: 'sk-bench',
  // Throughput, not the per-account request limit, is measured here.
  PARLEY_V1_RATE_LIMIT: '0',
});
try {
  const admin = await json(`${server.url}/api/v1/auths/signup`, 'POST', { name: 'Bench', email: 'bench@example.com', password: 'bench-password' });
  const token = admin.token as string;
  const tasks = await json(`${server.url}/api/v1/tasks/config`, 'GET', undefined, token);
  await json(`${server.url}/api/v1/tasks/config/update`, 'POST', { ...tasks, ENABLE_TITLE_GENERATION: false, ENABLE_TAGS_GENERATION: false, ENABLE_FOLLOW_UP_GENERATION: false }, token);

  // 1. Memory recall with 1,000 memories.
  const memories = Array.from({ length: MEMORIES }, (_, i) => `I ${pick(['like', 'use', 'visit', 'plan', 'own', 'write about'])} ${sentence(6)} (${i})`);
  await inParallel(memories, 8, (content) => json(`${server.url}/api/v1/memories/add`, 'POST', { content }, token));
  const url = `${server.url}/api/chat/completions`;
  const ask = (memory: boolean) => ({ model: 'bench-model', stream: true, messages: [{ role: 'user', content: `bench tokens=3 what do I plan for the budget meeting and the train to lyon` }], ...(memory ? { features: { memory: true } } : {}) });
  for (let i = 0; i < 30; i += 1) {
    await ttft(url, token, ask(false));
    await ttft(url, token, ask(true));
  }
  const off: number[] = [];
  const on: number[] = [];
  for (let i = 0; i < TTFT_RUNS; i += 1) {
    off.push(await ttft(url, token, ask(false)));
    on.push(await ttft(url, token, ask(true)));
  }
  table(`Memory recall: time to first token with ${MEMORIES.toLocaleString('en')} memories (ms; target ≤ 3 added at p50)`, ['request', 'p50', 'p95'], [
    ['memory off', fmt(median(off)), fmt(percentile(off, 95))],
    ['memory on (recall + context)', fmt(median(on)), fmt(percentile(on, 95))],
    ['added by memory', fmt(median(on) - median(off)), fmt(percentile(on, 95) - percentile(off, 95))],
  ]);

  // 3. Note search through the API over the same notes (all the admin's: an admin reads every note anyway).
  await inParallel(notes, 8, (n) => json(`${server.url}/api/v1/notes/create`, 'POST', { title: n.title, data: JSON.parse(n.data!) }, token));
  const queries = ['budget meeting', 'train to lyon', 'recipe flour butter', 'server backup migration', 'quarter goals', 'piano'];
  const search = (q: string) => `${server.url}/api/v1/notes/search?query=${encodeURIComponent(q)}`;
  for (const q of queries) await json(search(q), 'GET', undefined, token);
  const http: number[] = [];
  for (let i = 0; i < SEARCH_RUNS; i += 1) {
    const started = performance.now();
    await json(search(queries[i % queries.length]!), 'GET', undefined, token);
    http.push(performance.now() - started);
  }
  table(`Note search through GET /api/v1/notes/search, ${NOTES.toLocaleString('en')} notes (ms, a page of 60 with the total)`, ['request', 'p50', 'p95'], [['search', fmt(median(http)), fmt(percentile(http, 95))]]);
} finally {
  await server.stop();
  provider.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
