/**
 * Retrieval benchmark, every number measured side by side in one run:
 * - ingestion docs/s and chunks/s of 5 KB text files through the running service (offline
 *   embedder; files added one request after another, as the UI does);
 * - search p50/p99 at 10k and 100k chunks for full-text, vector and hybrid, against a plain
 *   Float32Array dot-product scan of the same vectors, and the same chunks in Orama 3;
 * - restore of a 100k-chunk base: the snapshot alone, and through the service after a restart
 *   (fingerprint query + read), next to a rebuild from SQLite and Orama's own save/load;
 * - nDCG@10 / recall@10 of full-text, vector, hybrid blend and reciprocal rank fusion on a BEIR
 *   set, ours and Orama's;
 * - chat completion latency (fake provider) with and without a large ingestion running.
 *
 *   npm run bench:retrieval -- --data ../shared/data/ir/msmarco-5k[,<more BEIR folders for quality>] [--only ingest,search,orama,restore,quality,chat]
 *
 * Environment: BENCH_DOCS (ingestion files, default 300), BENCH_ORAMA_100K=0 (skip loading 100k
 * chunks into Orama's built-in index: minutes and several GB), BENCH_CHATS (chats per phase, default 300),
 * BENCH_CHAT_FILES (files ingested during the chat phases, half queued first, half added meanwhile; default 3000).
 */
import { spawn } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, type RunningServer } from '../server/start';
import { memorySecretStore } from '../server/secrets';
import { CollectionIndex, effectiveWeight, type IndexInput, type IndexQuery } from '../server/retrieval/index/collection-index';
import { readSnapshot, writeSnapshot, type CollectionFingerprint } from '../server/retrieval/index/snapshot';
import { OramaIndex } from '../server/retrieval/orama-index';
import { OFFLINE_DIMS, offlineEmbed } from '../server/retrieval/embedding/offline-embedder';
import { offlineEmbedder } from '../server/retrieval/embedding/embedder';
import { blobOf } from '../server/retrieval/embedding/vector-blob';
import { loadBeir, ndcgAt, recallAt, type IrSet } from './retrieval-quality';

const args = process.argv.slice(2);
const dataArg = args[args.indexOf('--data') + 1];
if (!args.includes('--data') || !dataArg) {
  console.error('usage: bench/retrieval.ts --data <BEIR folder, e.g. ../shared/data/ir/msmarco-5k> [--only ingest,search,orama,restore,quality,chat]');
  process.exit(2);
}
const only = args.includes('--only') ? new Set(args[args.indexOf('--only') + 1]!.split(',')) : undefined;
const part = (name: string) => !only || only.has(name);
/** `--data a,b,…`: the first set feeds every part; quality is measured on each. */
const dataFolders = dataArg.split(',');
const set = loadBeir(path.resolve(dataFolders[0]!));
const DOCS = Number(process.env.BENCH_DOCS ?? 300);
const CHATS = Number(process.env.BENCH_CHATS ?? 300);
const CHAT_FILES = Number(process.env.BENCH_CHAT_FILES ?? 3000);
const QUERIES = set.queries.map((q) => q.text);
const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;
const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const table = (title: string, header: string[], rows: Array<Array<string | number>>) => {
  console.log(`\n${title}`);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells: Array<string | number>) => cells.map((c, i) => String(c).padEnd(widths[i]!)).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
};

// ---------------------------------------------------------------- a service to talk to
interface Bench {
  server: RunningServer;
  dataDir: string;
  token: string;
  userId: string;
  post(p: string, body: unknown): Promise<any>;
  upload(texts: string[], perRequest?: number): Promise<string[]>;
  close(keep?: boolean): Promise<void>;
}

async function startBench(options: { dataDir?: string; env?: Record<string, string>; signup?: boolean } = {}): Promise<Bench> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'parley-bench-retrieval-'));
  const server = await startServer({ host: '127.0.0.1', port: 0, dataDir, logLevel: 'warn', logToStdout: false, secrets: memorySecretStore(), rendererDir: path.join(dataDir, 'none'), env: { PARLEY_SIGNUP_RATE_LIMIT: '0', ...options.env } });
  let token = '';
  const post = async (p: string, body: unknown) =>
    (await fetch(`${server.url}${p}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) })).json() as Promise<any>;
  const credentials = { name: 'Bench', email: 'bench@example.com', password: 'bench-password' };
  const session = options.signup === false ? await post('/api/v1/auths/signin', credentials) : await post('/api/v1/auths/signup', credentials);
  token = session.token as string;
  return {
    server,
    dataDir,
    token,
    userId: session.id as string,
    post,
    async upload(texts, perRequest = 20) {
      const ids: string[] = [];
      for (let i = 0; i < texts.length; i += perRequest) {
        const form = new FormData();
        texts.slice(i, i + perRequest).forEach((t, j) => form.append('files', new Blob([t]), `doc-${i + j}.txt`));
        const res = (await (await fetch(`${server.url}/api/v1/chats/attachment/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form })).json()) as Array<{ id: string }>;
        ids.push(...res.map((r) => r.id));
      }
      return ids;
    },
    async close(keep = false) {
      await server.close();
      if (!keep) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** `count` documents of about `bytes` characters made of consecutive passages. */
function documents(count: number, bytes = 5000, start = 0): string[] {
  const texts: string[] = [];
  let cursor = start;
  for (let d = 0; d < count; d += 1) {
    let text = '';
    while (text.length < bytes) text += `${set.corpus[cursor++ % set.corpus.length]!.text}\n\n`;
    texts.push(text.slice(0, bytes));
  }
  return texts;
}

// ---------------------------------------------------------------- ingestion through the service
async function ingestion(): Promise<Array<Array<string | number>>> {
  const rows: Array<Array<string | number>> = [];
  for (const [label, settings] of [
    ['default chunking (CHUNK_SIZE 1000)', {}],
    ['small chunks (CHUNK_SIZE 250, overlap 25)', { CHUNK_SIZE: 250, CHUNK_OVERLAP: 25 }],
  ] as const) {
    const bench = await startBench();
    try {
      if (Object.keys(settings).length > 0) await bench.post('/api/v1/retrieval/config/update', settings);
      // Warm-up (worker start, JIT) in another base, not timed.
      const warm = await bench.post('/api/knowledge/create', { name: 'Warm-up' });
      for (const id of await bench.upload(documents(60, 5000, 9000))) await bench.post(`/api/knowledge/${warm.id}/file/add`, { file_id: id });
      await bench.server.services.retrieval.ingestion.idle();
      const base = await bench.post('/api/knowledge/create', { name: 'Bench' });
      const ids = await bench.upload(documents(DOCS));
      const started = performance.now();
      for (const id of ids) await bench.post(`/api/knowledge/${base.id}/file/add`, { file_id: id });
      await bench.server.services.retrieval.ingestion.idle();
      const seconds = (performance.now() - started) / 1000;
      const chunks = (await bench.server.services.retrieval.repo.fingerprint(base.id)).count;
      const failed = (await bench.server.services.retrieval.repo.filesOf(base.id)).filter((f) => f.status !== 'completed').length;
      rows.push([label, DOCS, chunks, fmt(seconds), fmt(DOCS / seconds, 0), fmt(chunks / seconds, 0), failed]);
    } finally {
      await bench.close();
    }
  }
  return rows;
}

/**
 * End to end through HTTP: files uploaded `perRequest` to a request (chat attachment upload, as
 * the bench's helper does), each added to a base with its own request, `concurrency` uploads
 * under way at once; timed from the first upload until ingestion is idle. Default chunking.
 */
async function ingestionEndToEnd(label: string, texts: string[], perRequest: number, concurrency: number): Promise<Array<string | number>> {
  const bench = await startBench();
  try {
    const warm = await bench.post('/api/knowledge/create', { name: 'Warm-up' });
    for (const id of await bench.upload(documents(40, 5000, 9000))) await bench.post(`/api/knowledge/${warm.id}/file/add`, { file_id: id });
    await bench.server.services.retrieval.ingestion.idle();
    const base = await bench.post('/api/knowledge/create', { name: 'Bench' });
    const load = os.loadavg()[0]!;
    const started = performance.now();
    let next = 0;
    const lane = async () => {
      while (next < texts.length) {
        const part = texts.slice(next, next + perRequest);
        next += perRequest;
        const ids = await bench.upload(part, perRequest);
        await Promise.all(ids.map((id) => bench.post(`/api/knowledge/${base.id}/file/add`, { file_id: id })));
      }
    };
    await Promise.all(Array.from({ length: concurrency }, lane));
    const uploadedSeconds = (performance.now() - started) / 1000;
    await bench.server.services.retrieval.ingestion.idle();
    const seconds = (performance.now() - started) / 1000;
    const chunks = (await bench.server.services.retrieval.repo.fingerprint(base.id)).count;
    const failed = (await bench.server.services.retrieval.repo.filesOf(base.id)).filter((f) => f.status !== 'completed').length;
    return [label, texts.length, chunks, fmt(uploadedSeconds), fmt(seconds), fmt(texts.length / seconds, 0), fmt(chunks / seconds, 0), failed, `${fmt(load, 1)} → ${fmt(os.loadavg()[0]!, 1)}`];
  } finally {
    await bench.close();
  }
}

// ---------------------------------------------------------------- search latency
function chunksOf(size: number, vectors: Float32Array[]): IndexInput[] {
  return Array.from({ length: size }, (_, i) => ({ id: i + 1, fileId: `f${Math.floor(i / 50)}`, text: set.corpus[i % set.corpus.length]!.text, vector: vectors[i % vectors.length]! }));
}

function buildIndex(size: number, vectors: Float32Array[]): CollectionIndex {
  const index = CollectionIndex.empty(OFFLINE_DIMS, offlineEmbedder.model);
  const chunks = chunksOf(size, vectors);
  for (let i = 0; i < chunks.length; i += 10_000) index.add(chunks.slice(i, i + 10_000));
  return index;
}

async function time(run: () => unknown, repeats = 3): Promise<{ p50: number; p99: number }> {
  const samples: number[] = [];
  for (let r = 0; r < repeats; r += 1) {
    for (let i = 0; i < QUERIES.length; i += 1) {
      const started = performance.now();
      await run();
      samples.push(performance.now() - started);
    }
  }
  return { p50: pct(samples, 0.5), p99: pct(samples, 0.99) };
}

const queryVectors = QUERIES.map((q) => offlineEmbed(q));
const ask = (k: number, mode: IndexQuery['mode']): IndexQuery => ({ text: QUERIES[k]!, vector: queryVectors[k]!, mode, weight: 0.5, fusion: 'blend', limit: 10, fullMatchCosine: offlineEmbedder.fullMatchCosine, semanticTrust: offlineEmbedder.semanticTrust, lexicalFeedback: offlineEmbedder.lexicalFeedback });

async function search(vectors: Float32Array[]) {
  const rows: Array<Array<string | number>> = [];
  const sizes = [10_000, 100_000];
  for (const size of sizes) {
    const index = buildIndex(size, vectors);
    // The baseline: the same vectors in a plain Float32Array, scanned with a plain loop, top 10 kept.
    const plain = new Float32Array(size * OFFLINE_DIMS);
    for (let i = 0; i < size; i += 1) plain.set(vectors[i % vectors.length]!, i * OFFLINE_DIMS);
    const scores = new Float32Array(size);
    let q = 0;
    const scan = await time(() => {
      const v = queryVectors[q++ % queryVectors.length]!;
      for (let d = 0, off = 0; d < size; d += 1, off += OFFLINE_DIMS) {
        let s = 0;
        for (let j = 0; j < OFFLINE_DIMS; j += 1) s += plain[off + j]! * v[j]!;
        scores[d] = s;
      }
      const top: number[] = [];
      for (let d = 0; d < size; d += 1) if (top.length < 10 || scores[d]! > scores[top[top.length - 1]!]!) {
        top.push(d);
        top.sort((a, b) => scores[b]! - scores[a]!);
        if (top.length > 10) top.pop();
      }
    });
    const measure = (mode: IndexQuery['mode']) => {
      let i = 0;
      return time(() => index.search(ask(i++ % QUERIES.length, mode)));
    };
    const text = await measure('text');
    const vector = await measure('vector');
    const hybrid = await measure('hybrid');
    rows.push(
      [size, 'plain Float32Array scan (baseline)', fmt(scan.p50), fmt(scan.p99), '1.00'],
      [size, 'service (Orama + Parley components): full-text (BM25)', fmt(text.p50), fmt(text.p99), fmt(text.p50 / scan.p50)],
      [size, 'service (Orama + Parley components): vector (SIMD scan)', fmt(vector.p50), fmt(vector.p99), fmt(vector.p50 / scan.p50)],
      [size, 'service (Orama + Parley components): hybrid (blend 0.5)', fmt(hybrid.p50), fmt(hybrid.p99), fmt(hybrid.p50 / scan.p50)],
    );
    if (part('orama') && (size === 10_000 || process.env.BENCH_ORAMA_100K !== '0')) {
      for (const row of await oramaLatency(size, vectors, scan.p50)) rows.push(row);
    } else if (part('orama')) {
      rows.push([size, 'Orama built-in index: not built (BENCH_ORAMA_100K=0; its 100k insert takes about 10× its 10k insert)', 'n/a', 'n/a', 'n/a']);
    }
  }
  return rows;
}

// ---------------------------------------------------------------- Orama 3, the same chunks
const oramaInserts: Array<Array<string | number>> = [];

async function oramaLatency(size: number, vectors: Float32Array[], scanP50: number): Promise<Array<Array<string | number>>> {
  const chunks = chunksOf(size, vectors);
  const builtAt = performance.now();
  const orama = await OramaIndex.build(OFFLINE_DIMS, chunks);
  const insertMs = performance.now() - builtAt;
  const oursAt = performance.now();
  buildIndex(size, vectors);
  oramaInserts.push([size, 'insert', fmt(performance.now() - oursAt, 0), fmt(insertMs, 0), '']);
  const measure = (mode: IndexQuery['mode']) => {
    let i = 0;
    return time(() => orama.search(ask(i++ % QUERIES.length, mode)));
  };
  const text = await measure('text');
  const vector = await measure('vector');
  const hybrid = await measure('hybrid');
  if (size !== 10_000) {
    oramaInserts.push([size, 'save / restore', '(restore table)', 'not measured', `save() as JSON is ~${fmt((size / 10_000) * 87, 0)} MB: past V8's largest string`]);
  } else {
    const savedAt = performance.now();
    const json = orama.snapshot();
    const saveMs = performance.now() - savedAt;
    const restoredAt = performance.now();
    OramaIndex.restore(OFFLINE_DIMS, json);
    const restoreMs = performance.now() - restoredAt;
    // Ours, same chunks, through a file.
    const index = buildIndex(size, vectors);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-bench-snapshot-'));
    const file = path.join(dir, 'base.idx');
    const fingerprint = { count: size, maxId: size, sumId: 1, model: index.model, language: index.language };
    const oursSavedAt = performance.now();
    await writeSnapshot(file, index, fingerprint);
    const oursSaveMs = performance.now() - oursSavedAt;
    const oursRestoredAt = performance.now();
    await restoreFile(file, fingerprint);
    const oursRestoreMs = performance.now() - oursRestoredAt;
    rmSync(dir, { recursive: true, force: true });
    oramaInserts.push([size, 'save (Orama: save() as JSON, its persistence format)', fmt(oursSaveMs, 0), fmt(saveMs, 0), `${fmt(json.length / 1e6, 0)} MB JSON`]);
    oramaInserts.push([size, 'restore', fmt(oursRestoreMs, 0), fmt(restoreMs, 0), '']);
  }
  return [
    [size, 'Orama built-in index: full-text', fmt(text.p50), fmt(text.p99), fmt(text.p50 / scanP50)],
    [size, 'Orama built-in index: vector (similarity 0.1)', fmt(vector.p50), fmt(vector.p99), fmt(vector.p50 / scanP50)],
    [size, 'Orama built-in index: hybrid (hybridWeights 0.5/0.5)', fmt(hybrid.p50), fmt(hybrid.p99), fmt(hybrid.p50 / scanP50)],
  ];
}

/** Restores an index file the way the service does (Orama load(), vectors read into the SIMD store). */
async function restoreFile(file: string, fingerprint: CollectionFingerprint): Promise<CollectionIndex> {
  return (await readSnapshot(file, fingerprint, OFFLINE_DIMS))!;
}

// ---------------------------------------------------------------- restore of a 100k-chunk base
async function restore(vectors: Float32Array[]): Promise<Array<Array<string | number>>> {
  const size = 100_000;
  const rows: Array<Array<string | number>> = [];
  // The snapshot alone.
  {
    const index = buildIndex(size, vectors);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-bench-snapshot-'));
    const file = path.join(dir, 'base.idx');
    const fingerprint = { count: size, maxId: size, sumId: (size * (size + 1)) / 2, model: index.model, language: index.language };
    const savedAt = performance.now();
    await writeSnapshot(file, index, fingerprint);
    const saveMs = performance.now() - savedAt;
    const restoredAt = performance.now();
    const restored = await restoreFile(file, fingerprint);
    const restoreMs = performance.now() - restoredAt;
    const same = [0, 1, 2].every((k) => JSON.stringify(restored.search(ask(k, 'hybrid'))) === JSON.stringify(index.search(ask(k, 'hybrid'))));
    rows.push(['snapshot file alone (write / read + views)', size, fmt(saveMs, 0), fmt(restoreMs, 0), same ? 'yes' : 'NO']);
    rmSync(dir, { recursive: true, force: true });
  }
  // Through the service: 100k chunks stored in SQLite, index rebuilt, saved, service restarted, index restored.
  const first = await startBench();
  const dataDir = first.dataDir;
  let second: Bench | undefined;
  try {
    const base = await first.post('/api/knowledge/create', { name: 'Large' });
    const db = first.server.services.db;
    const now = Math.floor(Date.now() / 1000);
    const FILES = size / 50;
    const fileIds = Array.from({ length: FILES }, (_, i) => `bench-file-${i}`);
    for (let i = 0; i < FILES; i += 200) {
      const part = fileIds.slice(i, i + 200);
      await db('files').insert(part.map((id) => ({ id, user_id: first.userId, filename: `${id}.txt`, mime_type: 'text/plain', size: 5000, hash: '', purpose: 'knowledge', meta: '{}', created_at: now, updated_at: now })));
      await db('collection_files').insert(part.map((id) => ({ collection_id: base.id, file_id: id, knowledge_id: base.id, status: 'processing', error: null, created_at: now, updated_at: now })));
    }
    const storeAt = performance.now();
    for (let f = 0; f < FILES; f += 50) {
      await first.server.services.retrieval.repo.storeMany(
        fileIds.slice(f, f + 50).map((fileId, j) => ({
          collectionId: base.id,
          fileId,
          chunks: Array.from({ length: 50 }, (_, seq) => {
            const n = (f + j) * 50 + seq;
            return { seq, text: set.corpus[n % set.corpus.length]!.text, context: null, meta: '{}', embedding: blobOf(vectors[n % vectors.length]!) };
          }),
        })),
        offlineEmbedder.model,
        now,
      );
    }
    const storeMs = performance.now() - storeAt;
    // Event-loop delay while each step runs (what a request arriving meanwhile waits at worst).
    const watched = async (run: () => Promise<unknown>): Promise<{ ms: number; loop: string }> => {
      const loop = monitorEventLoopDelay({ resolution: 5 });
      loop.enable();
      const at = performance.now();
      await run();
      const ms = performance.now() - at;
      loop.disable();
      return { ms, loop: `event-loop delay p99 ${fmt(loop.percentile(99) / 1e6, 0)} ms, max ${fmt(loop.max / 1e6, 0)} ms` };
    };
    const rebuild = await watched(() => first.server.services.retrieval.indexes.get(base.id));
    const rebuildMs = rebuild.ms;
    const rebuildLoop = `rebuild: ${rebuild.loop}`;
    // A save as the service does it after changes (on the index builder's thread when it runs).
    first.server.services.retrieval.indexes.changed(base.id);
    const saved = await watched(() => first.server.services.retrieval.service.flush());
    const saveMs = saved.ms;
    const saveLoop = `save: ${saved.loop}`;
    const before = await first.post('/api/v1/retrieval/query/collection', { collection_names: [base.id], query: QUERIES[0], k: 5, relevance_threshold: 0 });
    await first.close(true);
    second = await startBench({ dataDir, signup: false });
    const restored = await watched(() => second!.server.services.retrieval.indexes.get(base.id));
    const restoreMs = restored.ms;
    const queriedAt = performance.now();
    const after = await second.post('/api/v1/retrieval/query/collection', { collection_names: [base.id], query: QUERIES[0], k: 5, relevance_threshold: 0 });
    const firstQueryMs = performance.now() - queriedAt;
    const same = JSON.stringify(after) === JSON.stringify(before);
    rows.push(['service: store 100k chunks in SQLite (storeMany)', size, fmt(storeMs, 0), '', '']);
    rows.push(['service: rebuild from SQLite / save snapshot', size, fmt(saveMs, 0), fmt(rebuildMs, 0), `${rebuildLoop}; ${saveLoop}`]);
    rows.push(['service: restore after a restart (fingerprint + read)', size, '', fmt(restoreMs, 0), `${same ? 'yes' : 'NO'}; ${restored.loop}`]);
    rows.push(['service: first query after the restore (HTTP)', size, '', fmt(firstQueryMs, 0), '']);
  } finally {
    await second?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}

// ---------------------------------------------------------------- quality
/** Mean, and the 95% interval of the mean by a paired bootstrap over queries (fixed seed). */
function bootstrap(values: number[], rounds = 2000): { mean: number; sd: number; lo: number; hi: number } {
  let seed = 0x2545f491;
  const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const mean = (a: number[]) => a.reduce((x, y) => x + y, 0) / a.length;
  const means: number[] = [];
  for (let r = 0; r < rounds; r += 1) {
    let sum = 0;
    for (let i = 0; i < values.length; i += 1) sum += values[Math.floor(random() * values.length)]!;
    means.push(sum / values.length);
  }
  means.sort((a, b) => a - b);
  const m = mean(means);
  return { mean: mean(values), sd: Math.sqrt(mean(means.map((x) => (x - m) ** 2))), lo: means[Math.floor(rounds * 0.025)]!, hi: means[Math.floor(rounds * 0.975)]! };
}

/**
 * nDCG@10 / recall@10 of each mode on one BEIR set, and the paired difference of the service's
 * default hybrid against full-text and vector with its bootstrap interval (the noise: 43–50
 * queries leave ±0.01–0.03 on a mean).
 */
async function quality(data: IrSet, vectors: Float32Array[]): Promise<{ rows: Array<Array<string | number>>; noise: Array<Array<string | number>> }> {
  const chunks = data.corpus.map((doc, i) => ({ id: i + 1, fileId: doc.id, text: doc.text, vector: vectors[i]! }));
  const index = CollectionIndex.empty(OFFLINE_DIMS, offlineEmbedder.model);
  index.add(chunks);
  const trust = offlineEmbedder.semanticTrust;
  const feedback = offlineEmbedder.lexicalFeedback;
  const service = 'service (Orama + Parley components)';
  const variants: Array<[string, Omit<IndexQuery, 'text' | 'vector' | 'limit'>]> = [
    [`${service}: full-text (BM25)`, { mode: 'text', weight: 1, fusion: 'blend' }],
    [`${service}: vector (offline embedder)`, { mode: 'vector', weight: 0, fusion: 'blend' }],
    [`${service}: hybrid, default (blend, weight 0.5, offline embedder trust ${trust} → ${fmt(effectiveWeight(0.5, trust))}, feedback ${feedback})`, { mode: 'hybrid', weight: 0.5, fusion: 'blend', semanticTrust: trust, lexicalFeedback: feedback }],
    [`${service}: hybrid without lexical feedback, trust 0.25 → 0.80`, { mode: 'hybrid', weight: 0.5, fusion: 'blend', semanticTrust: 0.25 }],
    [`${service}: hybrid blend, weight 0.5 as is (a fully trusted embedder)`, { mode: 'hybrid', weight: 0.5, fusion: 'blend' }],
    [`${service}: hybrid blend, weight 0.7 as is`, { mode: 'hybrid', weight: 0.7, fusion: 'blend' }],
    [`${service}: hybrid blend, weight 0.9 as is`, { mode: 'hybrid', weight: 0.9, fusion: 'blend' }],
    [`${service}: hybrid RRF (k=10, weighted and fed back like the default)`, { mode: 'hybrid', weight: 0.5, fusion: 'rrf', semanticTrust: trust, lexicalFeedback: feedback }],
    [`${service}: hybrid RRF (k=10, 0.5/0.5)`, { mode: 'hybrid', weight: 0.5, fusion: 'rrf' }],
  ];
  const perQuery = async (rank: (q: { id: string; text: string }) => Promise<string[]> | string[]) => {
    const ndcg: number[] = [];
    const recall: number[] = [];
    for (const q of data.queries) {
      const ranked = await rank(q);
      ndcg.push(ndcgAt(ranked, data.qrels.get(q.id)!));
      recall.push(recallAt(ranked, data.qrels.get(q.id)!));
    }
    return { ndcg, recall };
  };
  const mean = (a: number[]) => a.reduce((x, y) => x + y, 0) / a.length;
  const rows: Array<Array<string | number>> = [];
  const results: Array<{ ndcg: number[]; recall: number[] }> = [];
  for (const [name, options] of variants) {
    const r = await perQuery((q) => index.search({ text: q.text, vector: offlineEmbed(q.text), limit: 10, fullMatchCosine: offlineEmbedder.fullMatchCosine, ...options }).map((h) => h.fileId));
    results.push(r);
    rows.push([name, fmt(mean(r.ndcg), 3), fmt(mean(r.recall), 3)]);
  }
  if (part('orama')) {
    const orama = await OramaIndex.build(OFFLINE_DIMS, chunks);
    for (const [name, mode] of [['Orama built-in index: full-text', 'text'], ['Orama built-in index: vector (same vectors)', 'vector'], ['Orama built-in index: hybrid 0.5/0.5', 'hybrid']] as const) {
      const r = await perQuery(async (q) => (await orama.search({ text: q.text, vector: offlineEmbed(q.text), mode, weight: 0.5, limit: 10 })).map((h) => h.fileId));
      rows.push([name, fmt(mean(r.ndcg), 3), fmt(mean(r.recall), 3)]);
    }
  }
  const [text, vector, hybrid] = results as [typeof results[0], typeof results[0], typeof results[0]];
  const noise: Array<Array<string | number>> = [];
  for (const [label, other] of [['default hybrid − full-text', text], ['default hybrid − vector', vector]] as const) {
    const b = bootstrap(hybrid.ndcg.map((x, i) => x - other.ndcg[i]!));
    const verdict = b.lo > 0 ? 'better beyond noise' : b.hi < 0 ? 'WORSE beyond noise' : 'within noise';
    noise.push([label, data.queries.length, fmt(b.mean, 3), fmt(b.sd, 3), `[${fmt(b.lo, 3)}, ${fmt(b.hi, 3)}]`, verdict]);
  }
  return { rows, noise };
}

// ---------------------------------------------------------------- chat latency during a large ingestion
function startFakeProvider(): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'lib', 'fake-provider-child.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.on('exit', (code) => reject(new Error(`fake provider exited with ${code}`)));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /listening on (\S+)/.exec(out);
      if (match) {
        child.removeAllListeners('exit');
        resolve({ url: match[1]!, stop: () => child.kill('SIGTERM') });
      }
    });
  });
}

async function chatLatency(): Promise<Array<Array<string | number>>> {
  const fake = await startFakeProvider();
  const bench = await startBench({ env: { PARLEY_COMPAT_BASE_URL: fake.url, PARLEY_COMPAT_API_KEY: 'sk-bench' } });
  try {
    const tasks = (await (await fetch(`${bench.server.url}/api/v1/tasks/config`, { headers: { authorization: `Bearer ${bench.token}` } })).json()) as Record<string, unknown>;
    await bench.post('/api/v1/tasks/config/update', { ...tasks, ENABLE_TITLE_GENERATION: false, ENABLE_TAGS_GENERATION: false, ENABLE_FOLLOW_UP_GENERATION: false });
    // One streamed completion (20 tokens) read to its end.
    const chat = async () => {
      const started = performance.now();
      const res = await fetch(`${bench.server.url}/api/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${bench.token}` },
        body: JSON.stringify({ model: 'bench-model', stream: true, messages: [{ role: 'user', content: 'bench tokens=20' }] }),
      });
      const text = await res.text();
      if (!res.ok || !text.includes('[DONE]')) throw new Error(`chat failed: ${res.status} ${text.slice(0, 200)}`);
      return performance.now() - started;
    };
    const loopDelays: number[] = [];
    const phase = async () => {
      const samples: number[] = [];
      const loop = monitorEventLoopDelay({ resolution: 1 });
      loop.enable();
      for (let i = 0; i < CHATS; i += 1) samples.push(await chat());
      loop.disable();
      loopDelays.push(loop.percentile(99) / 1e6);
      return samples;
    };
    for (let i = 0; i < 50; i += 1) await chat();
    const ids = await bench.upload(documents(CHAT_FILES));
    const idle1 = await phase();
    // A large ingestion: files queued (added through the service, each answered at once), then
    // indexed in the background while the chats run.
    const base = await bench.post('/api/knowledge/create', { name: 'Big ingestion' });
    for (const id of ids.slice(0, CHAT_FILES / 2)) await bench.server.services.knowledge.service.addFile({ id: bench.userId, role: 'admin' }, base.id, id);
    const queued = await phase();
    const queuedChunks = (await bench.server.services.retrieval.repo.fingerprint(base.id)).count;
    const queuedRunning = (await bench.server.services.retrieval.repo.withStatus(['pending', 'processing'])).length > 0;
    await bench.server.services.retrieval.ingestion.idle();
    // The same while files keep being added over HTTP, one request after another (as the UI does).
    const base2 = await bench.post('/api/knowledge/create', { name: 'Big ingestion, added meanwhile' });
    let adding = true;
    let added = 0;
    const adder = (async () => {
      for (const id of ids.slice(CHAT_FILES / 2)) {
        if (!adding) break;
        await bench.post(`/api/knowledge/${base2.id}/file/add`, { file_id: id });
        added += 1;
      }
    })();
    while (added < 20) await new Promise((r) => setTimeout(r, 10));
    const busy = await phase();
    const addedDuring = added;
    const fingerprint = await bench.server.services.retrieval.repo.fingerprint(base2.id);
    const stillRunning = added < ids.length / 2 || (await bench.server.services.retrieval.repo.withStatus(['pending', 'processing'])).length > 0;
    adding = false;
    await adder;
    await bench.server.services.retrieval.ingestion.idle();
    const idle2 = await phase();
    const idle = [...idle1, ...idle2];
    const state = (running: boolean) => (running ? 'still running at the end' : 'finished while the chats ran');
    return [
      ['no ingestion (before + after)', idle.length, fmt(pct(idle, 0.5)), fmt(pct(idle, 0.99)), '1.00', fmt(Math.max(loopDelays[0]!, loopDelays[3]!), 1), ''],
      [`${CHAT_FILES / 2} files queued, indexing in the background`, queued.length, fmt(pct(queued, 0.5)), fmt(pct(queued, 0.99)), fmt(pct(queued, 0.99) / pct(idle, 0.99)), fmt(loopDelays[1]!, 1), `${queuedChunks} chunks stored by the end, ${state(queuedRunning)}`],
      ['files added over HTTP meanwhile', busy.length, fmt(pct(busy, 0.5)), fmt(pct(busy, 0.99)), fmt(pct(busy, 0.99) / pct(idle, 0.99)), fmt(loopDelays[2]!, 1), `${addedDuring} files added, ${fingerprint.count} chunks stored, ${state(stillRunning)}`],
    ];
  } finally {
    await bench.close();
    fake.stop();
  }
}

console.log(`Retrieval benchmark: ${set.corpus.length} passages, ${set.queries.length} queries from ${dataArg}; Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
const embedStarted = performance.now();
const vectors = set.corpus.map((d) => offlineEmbed(d.text));
const embedMs = performance.now() - embedStarted;
table('Offline embedder', ['passages', 'ms', 'passages/s'], [[set.corpus.length, fmt(embedMs, 0), fmt(set.corpus.length / (embedMs / 1000), 0)]]);
if (part('ingest')) {
  const SMALL = Number(process.env.BENCH_SMALL_FILES ?? 2000);
  const LARGE = Number(process.env.BENCH_LARGE_FILES ?? 60);
  table(
    'Ingestion end to end through HTTP (upload + add + indexing, default chunking, offline embedder); target ≥ 100 docs/s and ≥ 2,000 chunks/s',
    ['files', 'docs', 'chunks', 's uploaded', 's done', 'docs/s', 'chunks/s', 'not completed', 'load average (1 min) before → after'],
    [
      await ingestionEndToEnd('small files (~600 B), 20 per upload request, 2 uploads at once', documents(SMALL, 600, 20_000), 20, 2),
      await ingestionEndToEnd('documents of 50 KB, 1 per upload request, 4 uploads at once', documents(LARGE, 50_000, 30_000), 1, 4),
    ],
  );
  table('Ingestion through the service (5 KB text files added one request after another, offline embedder); target ≥ 100 docs/s and ≥ 2,000 chunks/s', ['chunking', 'docs', 'chunks', 'seconds', 'docs/s', 'chunks/s', 'not completed'], await ingestion());
}
if (part('search') || part('orama')) {
  table('Search latency, ms (top 10, 3 × 43 queries); ratio = p50 / baseline p50; targets: 10k hybrid p50 ≤ 5 ms, 100k hybrid p50 ≤ 1.5× the scan', ['chunks', 'method', 'p50', 'p99', 'ratio'], await search(vectors));
}
if (oramaInserts.length > 0) table('Building and persisting the same chunks, ms: the service (Orama + Parley components) vs Orama built-in index', ['chunks', 'step', 'service', 'Orama built-in', 'note'], oramaInserts);
if (part('restore')) table('Restore of a 100k-chunk base, ms; target ≤ 1.5 s', ['what', 'chunks', 'write', 'read / build', 'same results / note'], await restore(vectors));
if (part('quality')) {
  for (const [i, folder] of dataFolders.entries()) {
    const data = i === 0 ? set : loadBeir(path.resolve(folder));
    const result = await quality(data, i === 0 ? vectors : data.corpus.map((d) => offlineEmbed(d.text)));
    table(`Quality on ${path.basename(folder)} (top 10, ${data.corpus.length} passages, ${data.queries.length} queries)`, ['method', 'nDCG@10', 'recall@10'], result.rows);
    table(`Noise on ${path.basename(folder)}: paired nDCG@10 difference per query, bootstrap over queries (2,000 rounds)`, ['difference', 'queries', 'mean', 'sd', '95% interval', 'verdict'], result.noise);
  }
}
if (part('chat')) table(`Chat completions (fake provider, 20 streamed tokens, through the service), ms; target: p99 rising ≤ 25% during a large ingestion`, ['phase', 'chats', 'p50', 'p99', 'p99 ratio', 'event-loop delay p99', 'ingestion'], await chatLatency());
