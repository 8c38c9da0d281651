import type { ConfigService } from '../config';
import type { FileStatus, KnowledgeFileEvent } from '../contracts/knowledge';
import type { FileRow, FilesService } from '../files';
import type { Clock } from '../platform/clock';
import type { Logger } from '../platform/log';
import type { RealtimeHub } from '../realtime';
import { fileKey, RetrievalSection, type Embedder, type EmbeddingService, type RetrievalRepo, type RetrievalService, type StoreItem } from '../retrieval';
import type { PrepareJob, PrepareResult } from './ingest/prepare';
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

/** Batches in flight: one on the worker while the one before is embedded or stored. */
const LANES = 2;
/** Most files per batch (one worker round trip, one transaction for their chunks)… */
const BATCH_FILES = 16;
/** …and most bytes of source files per batch (the first file always goes, whatever its size). */
const BATCH_BYTES = 16 * 1024 * 1024;
/**
 * While a batch is under way, a short knowledge-base batch waits this long for more files (files
 * added one request after another then share the per-batch work); chat files never wait.
 */
const LINGER_MS = 40;
/** Longest pause after storing a batch (see runBatch). */
const STORE_PAUSE_MAX_MS = 100;

interface Entry {
  job: IngestJob;
  done: () => void;
}

/** A file of a batch with its stored row and, once prepared, its chunks. */
interface Work {
  entry: Entry;
  file: FileRow;
  prepared?: PrepareResult;
  vectors?: Array<Float32Array | null>;
}

const reasonOf = (error: unknown) => `Indexing failed: ${error instanceof Error ? error.message : String(error)}`;

/**
 * Background ingestion: extract → chunk → embed → index, with per-file state (`pending` →
 * `processing` → `completed` | `failed` with the reason) and realtime progress. Files queued
 * meanwhile travel together: one status update, one worker round trip and one transaction per
 * batch (not per file, nor per chunk). A file is stored whole or not at all. Chat files (someone
 * waits for them in a conversation) go before knowledge-base files.
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
  /** Told of every state a file moves to (the knowledge file lists follow it). */
  statusChanged?: (job: IngestJob, status: FileStatus, error?: string) => void;
}) {
  const { retrieval, repo, files, worker, embeddings, config, realtime, clock, log } = deps;
  const changed = (job: IngestJob, status: FileStatus, error?: string) => deps.statusChanged?.(job, status, error);
  const indexedHooks: FileIndexedHook[] = [];
  const urgent: Entry[] = [];
  const queued: Entry[] = [];
  const pending = new Set<Promise<void>>();
  const inFlight = new Map<string, Promise<void>>();
  let active = 0;
  let stopped = false;
  let lingering: NodeJS.Timeout | undefined;

  function emit(job: IngestJob, event: Omit<KnowledgeFileEvent, 'knowledge_id' | 'file_id'>): void {
    if (job.notify.length === 0) return;
    const payload: KnowledgeFileEvent = { knowledge_id: job.knowledgeId, file_id: job.fileId, ...event };
    for (const userId of new Set(job.notify)) realtime.emitToUser(userId, 'knowledge:file', payload);
  }

  async function fail(job: IngestJob, reason: string): Promise<void> {
    if (stopped) return;
    await repo.setStatus(job.collectionId, job.fileId, 'failed', reason, clock.now());
    changed(job, 'failed', reason);
    emit(job, { status: 'failed', progress: 1, error: reason });
    log.info({ collectionId: job.collectionId, fileId: job.fileId, reason }, 'a file could not be indexed');
  }

  /** The next batch: urgent entries first, at most BATCH_FILES. */
  function take(): Entry[] {
    const batch = urgent.splice(0, BATCH_FILES);
    if (batch.length < BATCH_FILES) batch.push(...queued.splice(0, BATCH_FILES - batch.length));
    return batch;
  }

  /** Looks the batch's files up; those over the byte budget go back to the head of their queue. */
  async function gather(batch: Entry[]): Promise<Work[]> {
    const rows = new Map((await files.findMany(batch.map((e) => e.job.fileId))).map((f) => [f.id, f]));
    const work: Work[] = [];
    let bytes = 0;
    for (let i = 0; i < batch.length; i += 1) {
      const entry = batch[i]!;
      const file = rows.get(entry.job.fileId);
      if (!file) {
        await fail(entry.job, 'The file no longer exists');
        entry.done();
        continue;
      }
      if (work.length > 0 && bytes + file.size > BATCH_BYTES) {
        const rest = batch.splice(i);
        urgent.unshift(...rest.filter((e) => e.job.knowledgeId === null));
        queued.unshift(...rest.filter((e) => e.job.knowledgeId !== null));
        break;
      }
      bytes += file.size;
      work.push({ entry, file });
    }
    return work;
  }

  /** Vectors of each prepared file: the worker's offline ones, or the provider's (a failing provider fails that file). */
  async function embed(embedder: Embedder, work: Work[]): Promise<Work[]> {
    const ready: Work[] = [];
    for (const w of work) {
      const prepared = w.prepared!;
      if (prepared.vectors && embedder.offline) {
        const packed = prepared.vectors;
        w.vectors = prepared.chunks.map((_, i) => packed.subarray(i * prepared.dims, (i + 1) * prepared.dims));
        ready.push(w);
        continue;
      }
      try {
        w.vectors = await embedder.embed(prepared.chunks.map((c) => c.text));
        ready.push(w);
      } catch (error) {
        await fail(w.entry.job, reasonOf(error));
      }
    }
    return ready;
  }

  async function runBatch(batch: Entry[]): Promise<void> {
    let work = await gather(batch);
    if (work.length === 0 || stopped) return;
    const claimed = await repo.claim(
      work.map((w) => w.entry.job),
      'processing',
      clock.now(),
    );
    work = work.filter((w) => claimed.has(fileKey(w.entry.job.collectionId, w.entry.job.fileId)));
    if (work.length === 0) return;
    for (const w of work) {
      changed(w.entry.job, 'processing');
      emit(w.entry.job, { status: 'processing', progress: 0.1 });
    }
    try {
      const cfg = await config.get(RetrievalSection);
      const embedder = await embeddings.current();
      const externalUrl = cfg.CONTENT_EXTRACTION_ENGINE === 'external' && cfg.EXTERNAL_DOCUMENT_LOADER_URL !== '' ? cfg.EXTERNAL_DOCUMENT_LOADER_URL : undefined;
      const languages = new Map<string, string | undefined>();
      for (const w of work) if (!languages.has(w.entry.job.collectionId)) languages.set(w.entry.job.collectionId, await repo.languageOf(w.entry.job.collectionId));
      const jobs: PrepareJob[] = work.map((w) => ({
        file: { path: files.pathOf(w.file.id), mime: w.file.mime_type, filename: w.file.filename },
        settings: cfg,
        externalUrl,
        embedOffline: embedder.offline,
        language: languages.get(w.entry.job.collectionId),
      }));
      const outcomes = await worker.run(jobs);
      if (stopped) return;
      const prepared: Work[] = [];
      for (let i = 0; i < work.length; i += 1) {
        const outcome = outcomes[i];
        const w = work[i]!;
        if (!outcome) await fail(w.entry.job, reasonOf('no result'));
        else if (!outcome.ok) await fail(w.entry.job, outcome.reason ? outcome.error : reasonOf(outcome.error));
        else {
          w.prepared = outcome.result;
          emit(w.entry.job, { status: 'processing', progress: 0.5 });
          prepared.push(w);
        }
      }
      work = await embed(embedder, prepared);
      if (work.length === 0 || stopped) return;
      const items: StoreItem[] = work.map((w) => ({
        collectionId: w.entry.job.collectionId,
        fileId: w.entry.job.fileId,
        chunks: w.prepared!.chunks,
        vectors: w.vectors!,
        terms: w.prepared!.terms,
        language: w.prepared!.language,
      }));
      const storing = performance.eventLoopUtilization();
      const stored = await retrieval.storeMany(items, embedder.model);
      // Storing is partly main-thread work (SQLite bindings, indexing): give requests as much time
      // again as the event loop was busy meanwhile (not the time SQLite's own thread took) before
      // the next batch stores.
      await new Promise((resolve) => setTimeout(resolve, Math.min(STORE_PAUSE_MAX_MS, performance.eventLoopUtilization(storing).active)));
      for (let i = 0; i < work.length; i += 1) {
        if (!stored[i]) continue;
        const job = work[i]!.entry.job;
        changed(job, 'completed');
        emit(job, { status: 'completed', progress: 1 });
        for (const hook of indexedHooks) {
          try {
            await hook({ collectionId: job.collectionId, fileId: job.fileId, knowledgeId: job.knowledgeId, chunks: work[i]!.prepared!.chunks.length });
          } catch (error) {
            log.warn({ err: error }, 'a file-indexed hook failed');
          }
        }
      }
    } catch (error) {
      if (stopped) return;
      // The worker died, the provider could not be built, or the transaction failed: every file of the batch not stored yet fails.
      for (const w of work) {
        const row = await repo.findFile(w.entry.job.collectionId, w.entry.job.fileId);
        if (row?.status === 'processing') await fail(w.entry.job, reasonOf(error));
      }
    }
  }

  function pump(): void {
    if (lingering) {
      if (urgent.length === 0) return;
      clearTimeout(lingering);
      lingering = undefined;
    }
    while (!stopped && active < LANES && urgent.length + queued.length > 0) {
      if (active > 0 && urgent.length === 0 && queued.length < BATCH_FILES) {
        lingering = setTimeout(() => {
          lingering = undefined;
          pump();
        }, LINGER_MS);
        return;
      }
      const batch = take();
      active += 1;
      void runBatch(batch)
        .catch((error: unknown) => log.warn({ err: error }, 'ingestion failed unexpectedly'))
        .finally(() => {
          active -= 1;
          for (const entry of batch) entry.done();
          pump();
        });
    }
  }

  const ingestion = {
    /** Queues a file (already recorded as `pending`); resolves when it is completed or failed. */
    enqueue(job: IngestJob): Promise<void> {
      const key = fileKey(job.collectionId, job.fileId);
      const run = new Promise<void>((resolve) => {
        let settled = false;
        const entry: Entry = {
          job,
          done: () => {
            if (settled) return;
            settled = true;
            resolve();
          },
        };
        (job.knowledgeId === null ? urgent : queued).push(entry);
      });
      inFlight.set(key, run);
      pending.add(run);
      void run.finally(() => {
        pending.delete(run);
        if (inFlight.get(key) === run) inFlight.delete(key);
      });
      pump();
      return run;
    },

    /** Resolves when a queued file is done (at once if it is not queued). */
    async settled(collectionId: string, fileId: string): Promise<void> {
      await inFlight.get(fileKey(collectionId, fileId));
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

    /** Stops taking work (shutdown); the worker is stopped by its owner. Queued files stay `pending` for the next start. */
    stop(): void {
      stopped = true;
      if (lingering) clearTimeout(lingering);
      lingering = undefined;
      for (const entry of urgent.splice(0).concat(queued.splice(0))) entry.done();
    },
  };
  return ingestion;
}
export type Ingestion = ReturnType<typeof createIngestion>;
