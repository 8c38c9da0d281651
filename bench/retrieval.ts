/**
 * Retrieval benchmark, every number measured side by side in one run:
 * - ingestion docs/s and chunks/s of 5 KB text files through the running service (offline embedder);
 * - search p50/p99 at 10k and 100k chunks for full-text, vector and hybrid, against a plain
 *   Float32Array dot-product scan of the same vectors;
 * - restore of a 100k-chunk index from its snapshot;
 * - nDCG@10 / recall@10 of full-text, vector, hybrid blend and reciprocal rank fusion on a BEIR set.
 *
 *   npm run bench:retrieval -- --data ../shared/data/ir/msmarco-5k
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from '../server/start';
import { memorySecretStore } from '../server/secrets';
import { HybridIndex, type IndexQuery } from '../server/retrieval/hybrid-index';
import { readSnapshot, writeSnapshot } from '../server/retrieval/index-snapshot';
import { OFFLINE_DIMS, offlineEmbed } from '../server/retrieval/embedding/offline-embedder';
import { offlineEmbedder } from '../server/retrieval/embedding/embedder';
import { loadBeir, ndcgAt, recallAt } from './retrieval-quality';

const args = process.argv.slice(2);
const dataArg = args[args.indexOf('--data') + 1];
if (!args.includes('--data') || !dataArg) {
  console.error('usage: bench/retrieval.ts --data <BEIR folder, e.g. ../shared/data/ir/msmarco-5k>');
  process.exit(2);
}
const set = loadBeir(path.resolve(dataArg));
const DOCS = Number(process.env.BENCH_DOCS ?? 300);
const QUERIES = set.queries.map((q) => q.text);
const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;
const fmt = (n: number, digits = 2) => n.toFixed(digits);
const table = (title: string, header: string[], rows: Array<Array<string | number>>) => {
  console.log(`\n${title}`);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells: Array<string | number>) => cells.map((c, i) => String(c).padEnd(widths[i]!)).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
};

// ---------------------------------------------------------------- ingestion through the service
async function ingestion(): Promise<Array<Array<string | number>>> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parley-bench-retrieval-'));
  const server = await startServer({ host: '127.0.0.1', port: 0, dataDir, logLevel: 'warn', logToStdout: false, secrets: memorySecretStore(), rendererDir: path.join(dataDir, 'none'), env: { PARLEY_SIGNUP_RATE_LIMIT: '0' } });
  try {
    const post = async (p: string, body: unknown, token?: string) =>
      (await fetch(`${server.url}${p}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) })).json() as Promise<any>;
    const admin = await post('/api/v1/auths/signup', { name: 'Bench', email: 'bench@example.com', password: 'bench-password' });
    const base = await post('/api/knowledge/create', { name: 'Bench' }, admin.token);
    // 5 KB documents made of consecutive passages.
    const texts: string[] = [];
    let cursor = 0;
    for (let d = 0; d < DOCS; d += 1) {
      let text = '';
      while (text.length < 5000) text += `${set.corpus[cursor++ % set.corpus.length]!.text}\n\n`;
      texts.push(text.slice(0, 5000));
    }
    const ids: string[] = [];
    for (let i = 0; i < texts.length; i += 20) {
      const form = new FormData();
      texts.slice(i, i + 20).forEach((t, j) => form.append('files', new Blob([t]), `doc-${i + j}.txt`));
      const res = (await (await fetch(`${server.url}/api/v1/chats/attachment/upload`, { method: 'POST', headers: { authorization: `Bearer ${admin.token}` }, body: form })).json()) as Array<{ id: string }>;
      ids.push(...res.map((r) => r.id));
    }
    const started = performance.now();
    for (const id of ids) await post(`/api/knowledge/${base.id}/file/add`, { file_id: id }, admin.token);
    await server.services.knowledge.ingestion.idle();
    const seconds = (performance.now() - started) / 1000;
    const fingerprint = await server.services.retrieval.repo.fingerprint(base.id);
    const failed = (await server.services.retrieval.repo.filesOf(base.id)).filter((f) => f.status !== 'completed').length;
    return [[DOCS, fingerprint.count, fmt(seconds), fmt(DOCS / seconds, 0), fmt(fingerprint.count / seconds, 0), failed]];
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- search latency
function buildIndex(size: number, vectors: Float32Array[]): HybridIndex {
  const index = new HybridIndex(OFFLINE_DIMS, offlineEmbedder.model);
  const batch = [];
  for (let i = 0; i < size; i += 1) {
    const doc = set.corpus[i % set.corpus.length]!;
    batch.push({ id: i + 1, fileId: `f${Math.floor(i / 50)}`, text: doc.text, vector: vectors[i % vectors.length]! });
    if (batch.length === 10_000) index.add(batch.splice(0));
  }
  index.add(batch);
  return index;
}

function time(run: () => void, repeats = 3): { p50: number; p99: number } {
  const samples: number[] = [];
  for (let r = 0; r < repeats; r += 1) {
    for (let i = 0; i < QUERIES.length; i += 1) {
      const started = performance.now();
      run();
      samples.push(performance.now() - started);
    }
  }
  return { p50: pct(samples, 0.5), p99: pct(samples, 0.99) };
}

async function search(vectors: Float32Array[]) {
  const queryVectors = QUERIES.map((q) => offlineEmbed(q));
  const rows: Array<Array<string | number>> = [];
  let restoreRow: Array<string | number> = [];
  for (const size of [10_000, 100_000]) {
    const index = buildIndex(size, vectors);
    // The baseline: the same vectors in a plain Float32Array, scanned with a plain loop, top 10 kept.
    const plain = new Float32Array(size * OFFLINE_DIMS);
    for (let i = 0; i < size; i += 1) plain.set(vectors[i % vectors.length]!, i * OFFLINE_DIMS);
    const scores = new Float32Array(size);
    let q = 0;
    const scan = time(() => {
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
      return time(() => {
        const k = i++ % QUERIES.length;
        index.search({ text: QUERIES[k]!, vector: queryVectors[k]!, mode, weight: 0.5, fusion: 'blend', limit: 10, fullMatchCosine: offlineEmbedder.fullMatchCosine });
      });
    };
    const text = measure('text');
    const vector = measure('vector');
    const hybrid = measure('hybrid');
    rows.push(
      [size, 'plain Float32Array scan (baseline)', fmt(scan.p50), fmt(scan.p99), '1.00'],
      [size, 'full-text (BM25)', fmt(text.p50), fmt(text.p99), fmt(text.p50 / scan.p50)],
      [size, 'vector (SIMD scan)', fmt(vector.p50), fmt(vector.p99), fmt(vector.p50 / scan.p50)],
      [size, 'hybrid (blend 0.5)', fmt(hybrid.p50), fmt(hybrid.p99), fmt(hybrid.p50 / scan.p50)],
    );
    if (size === 100_000) {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-bench-snapshot-'));
      const file = path.join(dir, 'base.idx');
      const fingerprint = { count: size, maxId: size, sumId: (size * (size + 1)) / 2, model: index.model };
      const savedAt = performance.now();
      await writeSnapshot(file, index.exportState(), fingerprint);
      const saveMs = performance.now() - savedAt;
      const restoredAt = performance.now();
      const state = await readSnapshot(file, fingerprint);
      const restored = HybridIndex.fromState(state!);
      const restoreMs = performance.now() - restoredAt;
      const same = JSON.stringify(restored.search({ text: QUERIES[0]!, vector: queryVectors[0]!, mode: 'hybrid', weight: 0.5, fusion: 'blend', limit: 10 })) === JSON.stringify(index.search({ text: QUERIES[0]!, vector: queryVectors[0]!, mode: 'hybrid', weight: 0.5, fusion: 'blend', limit: 10 }));
      restoreRow = [size, fmt(saveMs, 0), fmt(restoreMs, 0), same ? 'yes' : 'NO'];
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return { rows, restoreRow };
}

// ---------------------------------------------------------------- quality
function quality(vectors: Float32Array[]) {
  const index = new HybridIndex(OFFLINE_DIMS, offlineEmbedder.model);
  index.add(set.corpus.map((doc, i) => ({ id: i + 1, fileId: doc.id, text: doc.text, vector: vectors[i]! })));
  const variants: Array<[string, Omit<IndexQuery, 'text' | 'vector' | 'limit'>]> = [
    ['full-text (BM25)', { mode: 'text', weight: 1, fusion: 'blend' }],
    ['vector (offline embedder)', { mode: 'vector', weight: 0, fusion: 'blend' }],
    ['hybrid blend w=0.3', { mode: 'hybrid', weight: 0.3, fusion: 'blend' }],
    ['hybrid blend w=0.5 (default)', { mode: 'hybrid', weight: 0.5, fusion: 'blend' }],
    ['hybrid blend w=0.7', { mode: 'hybrid', weight: 0.7, fusion: 'blend' }],
    ['hybrid RRF (k=60)', { mode: 'hybrid', weight: 0.5, fusion: 'rrf' }],
  ];
  return variants.map(([name, options]) => {
    let ndcg = 0;
    let recall = 0;
    for (const q of set.queries) {
      const hits = index.search({ text: q.text, vector: offlineEmbed(q.text), limit: 10, fullMatchCosine: offlineEmbedder.fullMatchCosine, ...options });
      const ranked = hits.map((h) => h.fileId);
      ndcg += ndcgAt(ranked, set.qrels.get(q.id)!);
      recall += recallAt(ranked, set.qrels.get(q.id)!);
    }
    return [name, fmt(ndcg / set.queries.length, 3), fmt(recall / set.queries.length, 3)];
  });
}

console.log(`Retrieval benchmark: ${set.corpus.length} passages, ${set.queries.length} queries from ${dataArg}; Node ${process.version}, ${os.cpus().length} CPUs`);
const embedStarted = performance.now();
const vectors = set.corpus.map((d) => offlineEmbed(d.text));
const embedMs = performance.now() - embedStarted;
table('Offline embedder', ['passages', 'ms', 'passages/s'], [[set.corpus.length, fmt(embedMs, 0), fmt(set.corpus.length / (embedMs / 1000), 0)]]);
table('Ingestion through the service (5 KB text files, offline embedder, default chunking)', ['docs', 'chunks', 'seconds', 'docs/s', 'chunks/s', 'not completed'], await ingestion());
const { rows, restoreRow } = await search(vectors);
table('Search latency, ms (top 10, 150 queries); ratio = p50 / baseline p50', ['chunks', 'method', 'p50', 'p99', 'ratio'], rows);
table('Snapshot of a 100k-chunk index, ms', ['chunks', 'save', 'restore', 'same results'], [restoreRow]);
table(`Quality on ${path.basename(dataArg)} (top 10)`, ['method', 'nDCG@10', 'recall@10'], quality(vectors));
