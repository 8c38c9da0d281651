import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OFFLINE_DIMS } from '../../server/retrieval/embedding/offline-embedder';
import type { IndexQuery } from '../../server/retrieval/index/collection-index';
import { writeSnapshot } from '../../server/retrieval/index/snapshot';
import { OramaIndex } from '../lib/orama-index';
import { fmt, type Rows } from '../lib/report';
import type { BenchData } from './data';
import { restoreFile } from './restore';

/** Insert, save and restore timings next to ours, filled by {@link oramaLatency}. */
export const oramaInserts: Rows = [];

/** Orama 3's built-in index over the same chunks: search latency rows (and, at 10k, save/restore timings in {@link oramaInserts}). */
export async function oramaLatency(data: BenchData, size: number, scanP50: number): Promise<Rows> {
  const chunks = data.chunksOf(size);
  const builtAt = performance.now();
  const orama = await OramaIndex.build(OFFLINE_DIMS, chunks);
  const insertMs = performance.now() - builtAt;
  const oursAt = performance.now();
  data.buildIndex(size);
  oramaInserts.push([size, 'insert', fmt(performance.now() - oursAt, 0), fmt(insertMs, 0), '']);
  const measure = (mode: IndexQuery['mode']) => {
    let i = 0;
    return data.time(() => orama.search(data.ask(i++ % data.queries.length, mode)));
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
    const index = data.buildIndex(size);
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
