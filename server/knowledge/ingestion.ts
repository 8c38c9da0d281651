import type { ConfigService } from '../config';
import type { KnowledgeFileEvent } from '../contracts/knowledge';
import type { FilesService } from '../files';
import type { Clock } from '../platform/clock';
import type { Logger } from '../platform/log';
import type { RealtimeHub } from '../realtime';
import { RetrievalSection, type EmbeddingService, type RetrievalRepo, type RetrievalService } from '../retrieval';
import { IngestError } from './ingest/extraction-error';
import type { PrepareWorker } from './ingest/worker-client';

/** A file to index into a collection, and who hears about its progress. */
export interface IngestJob {
  collectionId: string;
  fileId: string;
  knowledgeId: string | null;
  /** Users told about progress (realtime `knowledge:file`). */
  notify: readonly string[];
}

/** Called after a file's chunks are stored (the knowledge graph hooks in here). */
export type FileIndexedHook = (event: { collectionId: string; fileId: string; knowledgeId: string | null; chunks: number }) => Promise<void> | void;

/**
 * Background ingestion: extract → chunk → embed → index, two files at a time, with per-file state
 * (`pending` → `processing` → `completed` | `failed` with the reason) and realtime progress.
 * A file is stored whole or not at all: chunks are written in one transaction at the end.
 */
export function createIngestion(deps: {
  retrieval: RetrievalService;
  repo: RetrievalRepo;
  files: FilesService;
  worker: PrepareWorker;
  embeddings: EmbeddingService;
  config: ConfigService;
  realtime: RealtimeHub;
  clock: Clock;
  log: Logger;
}) {
  const { retrieval, repo, files, worker, embeddings, config, realtime, clock, log } = deps;
  const indexedHooks: FileIndexedHook[] = [];
  /** Two files in flight: one on the worker while the other's chunks are embedded or stored. */
  const LANES = 2;
  let active = 0;
  const waiting: Array<() => Promise<void>> = [];
  const pending = new Set<Promise<void>>();
  const inFlight = new Map<string, Promise<void>>();
  const next = () => {
    while (active < LANES && waiting.length > 0) {
      active += 1;
      void waiting.shift()!();
    }
  };
  let stopped = false;

  function emit(job: IngestJob, event: Omit<KnowledgeFileEvent, 'knowledge_id' | 'file_id'>): void {
    const payload: KnowledgeFileEvent = { knowledge_id: job.knowledgeId, file_id: job.fileId, ...event };
    for (const userId of new Set(job.notify)) realtime.emitToUser(userId, 'knowledge:file', payload);
  }

  async function fail(job: IngestJob, reason: string): Promise<void> {
    await repo.setStatus(job.collectionId, job.fileId, 'failed', reason, clock.now());
    emit(job, { status: 'failed', progress: 1, error: reason });
    log.info({ collectionId: job.collectionId, fileId: job.fileId, reason }, 'a file could not be indexed');
  }

  async function process(job: IngestJob): Promise<void> {
    if (stopped) return;
    const file = await files.find(job.fileId);
    if (!file) return fail(job, 'The file no longer exists');
    if (!(await repo.findFile(job.collectionId, job.fileId))) return;
    await repo.setStatus(job.collectionId, job.fileId, 'processing', null, clock.now());
    emit(job, { status: 'processing', progress: 0.1 });
    try {
      const cfg = await config.get(RetrievalSection);
      const embedder = await embeddings.current();
      const external = cfg.CONTENT_EXTRACTION_ENGINE === 'external' && cfg.EXTERNAL_DOCUMENT_LOADER_URL !== '' ? cfg.EXTERNAL_DOCUMENT_LOADER_URL : undefined;
      const prepared = await worker.run({
        file: { path: files.pathOf(file.id), mime: file.mime_type, filename: file.filename },
        settings: cfg,
        externalUrl: external,
        embedOffline: embedder.offline,
      });
      emit(job, { status: 'processing', progress: 0.5 });
      const texts = prepared.chunks.map((c) => c.text);
      let vectors: Float32Array[];
      if (prepared.vectors) {
        const packed = prepared.vectors;
        vectors = texts.map((_, i) => packed.subarray(i * prepared.dims, (i + 1) * prepared.dims));
      } else {
        vectors = await embedder.embed(texts);
      }
      const stored = await retrieval.store(job.collectionId, job.fileId, prepared.chunks, vectors, embedder.model);
      if (!stored) return;
      emit(job, { status: 'completed', progress: 1 });
      for (const hook of indexedHooks) {
        try {
          await hook({ collectionId: job.collectionId, fileId: job.fileId, knowledgeId: job.knowledgeId, chunks: prepared.chunks.length });
        } catch (error) {
          log.warn({ err: error }, 'a file-indexed hook failed');
        }
      }
    } catch (error) {
      if (stopped) return;
      const reason = error instanceof IngestError ? error.message : `Indexing failed: ${error instanceof Error ? error.message : String(error)}`;
      await fail(job, reason);
    }
  }

  const ingestion = {
    /** Queues a file (already recorded as `pending`); resolves when it is completed or failed. */
    enqueue(job: IngestJob): Promise<void> {
      const key = `${job.collectionId}\u0000${job.fileId}`;
      const run = new Promise<void>((resolve) => {
        waiting.push(() =>
          process(job)
            .catch((error: unknown) => log.warn({ err: error }, 'ingestion failed unexpectedly'))
            .finally(() => {
              active -= 1;
              resolve();
              next();
            }),
        );
      });
      next();
      inFlight.set(key, run);
      pending.add(run);
      void run.finally(() => {
        pending.delete(run);
        if (inFlight.get(key) === run) inFlight.delete(key);
      });
      return run;
    },

    /** Resolves when a queued file is done (at once if it is not queued). */
    async settled(collectionId: string, fileId: string): Promise<void> {
      await inFlight.get(`${collectionId}\u0000${fileId}`);
    },

    /** Resolves when everything queued (including work queued meanwhile) is done. */
    async idle(): Promise<void> {
      while (pending.size > 0) await Promise.all([...pending]);
    },

    /** Re-queues files left `pending` or `processing` by a previous run. */
    async resume(): Promise<number> {
      const rows = await repo.withStatus(['pending', 'processing']);
      for (const row of rows) void ingestion.enqueue({ collectionId: row.collection_id, fileId: row.file_id, knowledgeId: row.knowledge_id, notify: [] });
      return rows.length;
    },

    /** Registers work to do after a file is indexed. */
    onFileIndexed(hook: FileIndexedHook): void {
      indexedHooks.push(hook);
    },

    /** Stops taking work (shutdown); the worker is stopped by its owner. */
    stop(): void {
      stopped = true;
    },
  };
  return ingestion;
}
export type Ingestion = ReturnType<typeof createIngestion>;
