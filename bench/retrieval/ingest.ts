import os from 'node:os';
import { fmt, table, type Rows } from '../lib/report';
import { startBench } from '../lib/start-bench';
import type { BenchData } from './data';

const DOCS = Number(process.env.BENCH_DOCS ?? 300);

async function ingestion(data: BenchData): Promise<Rows> {
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
      for (const id of await bench.upload(data.documents(60, 5000, 9000))) await bench.post(`/api/knowledge/${warm.id}/file/add`, { file_id: id });
      await bench.server.services.retrieval.ingestion.idle();
      const base = await bench.post('/api/knowledge/create', { name: 'Bench' });
      const ids = await bench.upload(data.documents(DOCS));
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
async function ingestionEndToEnd(data: BenchData, label: string, texts: string[], perRequest: number, concurrency: number): Promise<Array<string | number>> {
  const bench = await startBench();
  try {
    const warm = await bench.post('/api/knowledge/create', { name: 'Warm-up' });
    for (const id of await bench.upload(data.documents(40, 5000, 9000))) await bench.post(`/api/knowledge/${warm.id}/file/add`, { file_id: id });
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


/** Part `ingest`: files → indexed chunks through the running service (offline embedder). */
export async function ingestPart(data: BenchData): Promise<void> {
  const SMALL = Number(process.env.BENCH_SMALL_FILES ?? 2000);
  const LARGE = Number(process.env.BENCH_LARGE_FILES ?? 60);
  table(
    'Ingestion end to end through HTTP (upload + add + indexing, default chunking, offline embedder); target ≥ 100 docs/s and ≥ 2,000 chunks/s',
    ['files', 'docs', 'chunks', 's uploaded', 's done', 'docs/s', 'chunks/s', 'not completed', 'load average (1 min) before → after'],
    [
      await ingestionEndToEnd(data, 'small files (~600 B), 20 per upload request, 2 uploads at once', data.documents(SMALL, 600, 20_000), 20, 2),
      await ingestionEndToEnd(data, 'documents of 50 KB, 1 per upload request, 4 uploads at once', data.documents(LARGE, 50_000, 30_000), 1, 4),
    ],
  );
  table('Ingestion through the service (5 KB text files added one request after another, offline embedder); target ≥ 100 docs/s and ≥ 2,000 chunks/s', ['chunking', 'docs', 'chunks', 'seconds', 'docs/s', 'chunks/s', 'not completed'], await ingestion(data));
}
