import { OFFLINE_DIMS } from '../../server/retrieval/embedding/offline-embedder';
import type { IndexQuery } from '../../server/retrieval/index/collection-index';
import { fmt, table, type Rows } from '../lib/report';
import type { BenchData } from './data';
import { oramaInserts, oramaLatency } from './orama';

async function search(data: BenchData, withOrama: boolean): Promise<Rows> {
  const rows: Rows = [];
  const sizes = [10_000, 100_000];
  for (const size of sizes) {
    const index = data.buildIndex(size);
    // The baseline: the same vectors in a plain Float32Array, scanned with a plain loop, top 10 kept.
    const plain = new Float32Array(size * OFFLINE_DIMS);
    for (let i = 0; i < size; i += 1) plain.set(data.vectors[i % data.vectors.length]!, i * OFFLINE_DIMS);
    const scores = new Float32Array(size);
    let q = 0;
    const scan = await data.time(() => {
      const v = data.queryVectors[q++ % data.queryVectors.length]!;
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
      return data.time(() => index.search(data.ask(i++ % data.queries.length, mode)));
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
    if (withOrama && (size === 10_000 || process.env.BENCH_ORAMA_100K !== '0')) {
      for (const row of await oramaLatency(data, size, scan.p50)) rows.push(row);
    } else if (withOrama) {
      rows.push([size, 'Orama built-in index: not built (BENCH_ORAMA_100K=0; its 100k insert takes about 10× its 10k insert)', 'n/a', 'n/a', 'n/a']);
    }
  }
  return rows;
}


/** Parts `search` and `orama`: search latency at 10k and 100k chunks (with Orama's own index when `withOrama`). */
export async function searchPart(data: BenchData, withOrama: boolean): Promise<void> {
  table('Search latency, ms (top 10, 3 × 43 queries); ratio = p50 / baseline p50; targets: 10k hybrid p50 ≤ 5 ms, 100k hybrid p50 ≤ 1.5× the scan', ['chunks', 'method', 'p50', 'p99', 'ratio'], await search(data, withOrama));
  if (oramaInserts.length > 0) table('Building and persisting the same chunks, ms: the service (Orama + Parley components) vs Orama built-in index', ['chunks', 'step', 'service', 'Orama built-in', 'note'], oramaInserts);
}
