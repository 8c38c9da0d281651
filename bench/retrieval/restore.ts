import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { offlineEmbedder } from '../../server/retrieval/embedding/embedder';
import { OFFLINE_DIMS } from '../../server/retrieval/embedding/offline-embedder';
import { blobOf } from '../../server/retrieval/embedding/vector-blob';
import type { CollectionIndex } from '../../server/retrieval/index/collection-index';
import { readSnapshot, writeSnapshot, type CollectionFingerprint } from '../../server/retrieval/index/snapshot';
import { fmt, table, type Rows } from '../lib/report';
import { startBench, type Bench } from '../lib/start-bench';
import type { BenchData } from './data';

/** Restores an index file the way the service does (Orama load(), vectors read into the SIMD store). */
export async function restoreFile(file: string, fingerprint: CollectionFingerprint): Promise<CollectionIndex> {
  return (await readSnapshot(file, fingerprint, OFFLINE_DIMS))!;
}

async function restore(data: BenchData): Promise<Rows> {
  const size = 100_000;
  const rows: Rows = [];
  // The snapshot alone.
  {
    const index = data.buildIndex(size);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-bench-snapshot-'));
    const file = path.join(dir, 'base.idx');
    const fingerprint = { count: size, maxId: size, sumId: (size * (size + 1)) / 2, model: index.model, language: index.language };
    const savedAt = performance.now();
    await writeSnapshot(file, index, fingerprint);
    const saveMs = performance.now() - savedAt;
    const restoredAt = performance.now();
    const restored = await restoreFile(file, fingerprint);
    const restoreMs = performance.now() - restoredAt;
    const same = [0, 1, 2].every((k) => JSON.stringify(restored.search(data.ask(k, 'hybrid'))) === JSON.stringify(index.search(data.ask(k, 'hybrid'))));
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
            return { seq, text: data.set.corpus[n % data.set.corpus.length]!.text, context: null, meta: '{}', embedding: blobOf(data.vectors[n % data.vectors.length]!) };
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
    const before = await first.post('/api/v1/retrieval/query/collection', { collection_names: [base.id], query: data.queries[0], k: 5, relevance_threshold: 0 });
    await first.close(true);
    second = await startBench({ dataDir, signup: false });
    const restored = await watched(() => second!.server.services.retrieval.indexes.get(base.id));
    const restoreMs = restored.ms;
    const queriedAt = performance.now();
    const after = await second.post('/api/v1/retrieval/query/collection', { collection_names: [base.id], query: data.queries[0], k: 5, relevance_threshold: 0 });
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


/** Part `restore`: a 100k-chunk base saved and restored, alone and through the service. */
export async function restorePart(data: BenchData): Promise<void> {
  table('Restore of a 100k-chunk base, ms; target ≤ 1.5 s', ['what', 'chunks', 'write', 'read / build', 'same results / note'], await restore(data));
}
