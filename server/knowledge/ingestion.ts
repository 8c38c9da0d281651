import type { ConfigService } from '../config';
import type { FileStatus, KnowledgeFileEvent } from '../contracts/knowledge';
import type { FileRow, FilesService } from '../files';
import type { Clock } from '../platform/clock';
import type { ClaimedJob, JobQueue } from '../platform/jobs';
import type { Logger } from '../platform/log';
import type { RealtimeHub } from '../realtime';
import { fileKey, RetrievalSection, type Embedder, type EmbeddingService, type RetrievalRepo, type RetrievalService, type StoreItem } from '../retrieval';
import type { PrepareJob, PrepareResult } from './ingest/prepare';
import type { PrepareWorker } from './ingest/worker-client';
import { assertOutboundAllowed } from '../platform/net/outbound';

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
/** Waiting files looked up per poll to see whether another instance finished them. */
const SETTLE_CHECK_MAX = 500;
/** Longest pause after storing a batch (see runBatch). */
const STORE_PAUSE_MAX_MS = 100;

/** The job kind of ingestion in the jobs table… */
export const INGEST_JOB = 'ingest';
/** …and a file's job key (also what callers wait on). */
export const ingestKey = (collectionId: string, fileId: string) => `${collectionId}/${fileId}`;

/** A claimed file of a batch; `failed` holds its reason once it could not be indexed. */
interface Entry {
  job: IngestJob;
  claimed: ClaimedJob;
  failed?: string;
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
 *
 * The queue is the jobs table (platform/jobs): one job per file, a batch is one claim of several
 * jobs and ends with one completion, so with several instances on one database each file is
 * indexed once, by whichever instance claims it, and a file whose instance died is taken over
 * when its lease runs out. Callers wait on `enqueue` / `settled` / `idle` for files queued here,
 * whoever indexes them.
 */
export function createIngestion(deps: {
  retrieval: RetrievalService;
  repo: RetrievalRepo;
  files: FilesService;
  worker: PrepareWorker;
  embeddings: EmbeddingService;
  config: ConfigService;
  realtime: RealtimeHub;
  jobs: JobQueue;
  clock: Clock;
  log: Logger;
  /** Told of every state a file moves to (the knowledge file lists follow it). */
  statusChanged?: (job: IngestJob, status: FileStatus, error?: string) => void;
}) {
  const { retrieval, repo, files, worker, embeddings, config, realtime, jobs, clock, log } = deps;
  const changed = (job: IngestJob, status: FileStatus, error?: string) => deps.statusChanged?.(job, status, error);
  const indexedHooks: FileIndexedHook[] = [];
  /** Callers waiting for a file (by ingestKey), until its job is done here or elsewhere. */
  const waiters = new Map<string, { done: Promise<void>; resolve: () => void }>();
  /** Files enqueued here and not claimed yet (all, and chat files): the batching decisions' view of the queue. */
  let queuedHint = 0;
  let urgentHint = 0;
  let active = 0;
  let stopped = false;
  let lingering: NodeJS.Timeout | undefined;
  let claiming = false;
  let pumpAgain = false;

  function settle(key: string): void {
    const waiter = waiters.get(key);
    if (!waiter) return;
    waiters.delete(key);
    waiter.resolve();
  }

  function emit(job: IngestJob, event: Omit<KnowledgeFileEvent, 'knowledge_id' | 'file_id'>): void {
    if (job.notify.length === 0) return;
    const payload: KnowledgeFileEvent = { knowledge_id: job.knowledgeId, file_id: job.fileId, ...event };
    for (const userId of new Set(job.notify)) realtime.emitToUser(userId, 'knowledge:file', payload);
  }

  async function fail(entry: Entry, reason: string): Promise<void> {
    if (stopped) return;
    const { job } = entry;
    entry.failed = reason;
    await repo.setStatus(job.collectionId, job.fileId, 'failed', reason, clock.now());
    changed(job, 'failed', reason);
    emit(job, { status: 'failed', progress: 1, error: reason });
    log.info({ collectionId: job.collectionId, fileId: job.fileId, reason }, 'a file could not be indexed');
  }

  /** The next batch: one claim of at most BATCH_FILES jobs, chat files first. */
  async function take(): Promise<Entry[]> {
    const claimed = await jobs.claim(INGEST_JOB, BATCH_FILES);
    queuedHint = Math.max(0, queuedHint - claimed.length);
    const entries: Entry[] = claimed.map((c) => ({ job: JSON.parse(c.payload) as IngestJob, claimed: c }));
    urgentHint = Math.max(0, urgentHint - entries.filter((e) => e.job.knowledgeId === null).length);
    return entries;
  }

  /** Looks the batch's files up; those over the byte budget go back to the queue (claimed first next time). */
  async function gather(batch: Entry[]): Promise<Work[]> {
    const rows = new Map((await files.findMany(batch.map((e) => e.job.fileId))).map((f) => [f.id, f]));
    const work: Work[] = [];
    let bytes = 0;
    for (let i = 0; i < batch.length; i += 1) {
      const entry = batch[i]!;
      const file = rows.get(entry.job.fileId);
      if (!file) {
        await fail(entry, 'The file no longer exists');
        continue;
      }
      if (work.length > 0 && bytes + file.size > BATCH_BYTES) {
        const rest = batch.splice(i);
        queuedHint += rest.length;
        await jobs.release(rest.map((e) => e.claimed));
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
        await fail(w.entry, reasonOf(error));
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
      // The worker thread makes these calls; the guard is asked here, before the files go to it.
      if (externalUrl) await assertOutboundAllowed('content-extraction', externalUrl);
      if (cfg.ENABLE_CHUNKING_SERVER && cfg.CHUNKING_SERVER_URL) await assertOutboundAllowed('chunking-server', cfg.CHUNKING_SERVER_URL);
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
        if (!outcome) await fail(w.entry, reasonOf('no result'));
        else if (!outcome.ok) await fail(w.entry, outcome.reason ? outcome.error : reasonOf(outcome.error));
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
        if (row?.status === 'processing') await fail(w.entry, reasonOf(error));
      }
    }
  }

  /** Ends a batch: one completion for its jobs (failed files' jobs record their reason), then its waiters. */
  async function finish(batch: Entry[]): Promise<void> {
    if (stopped) return;
    await jobs.complete(batch.filter((e) => e.failed === undefined).map((e) => e.claimed));
    for (const e of batch) if (e.failed !== undefined) await jobs.fail(e.claimed, e.failed);
    for (const e of batch) settle(ingestKey(e.job.collectionId, e.job.fileId));
  }

  /** Claims batches while lanes are free and jobs wait (files added one after another, while a batch runs, wait briefly to share the next). */
  async function fill(): Promise<void> {
    while (!stopped && active < LANES) {
      if (active > 0 && urgentHint === 0 && queuedHint < BATCH_FILES) {
        lingering = setTimeout(() => {
          lingering = undefined;
          pump();
        }, LINGER_MS);
        return;
      }
      const batch = await take();
      if (batch.length === 0) {
        queuedHint = 0;
        urgentHint = 0;
        return;
      }
      active += 1;
      void runBatch(batch)
        .then(
          () => finish(batch),
          async (error: unknown) => {
            log.warn({ err: error }, 'ingestion failed unexpectedly');
            // Not retried in a loop: the files stay pending and are queued again at the next start (resume).
            for (const e of batch) e.failed ??= reasonOf(error);
            await finish(batch);
          },
        )
        .catch((error: unknown) => log.warn({ err: error }, 'recording the end of an ingestion batch failed'))
        .finally(() => {
          active -= 1;
          pump();
        });
    }
  }

  function pump(): void {
    if (lingering) {
      if (urgentHint === 0) return;
      clearTimeout(lingering);
      lingering = undefined;
    }
    if (claiming) {
      pumpAgain = true;
      return;
    }
    claiming = true;
    void fill()
      .catch((error: unknown) => log.warn({ err: error }, 'claiming files to index failed'))
      .finally(() => {
        claiming = false;
        if (pumpAgain && !stopped) {
          pumpAgain = false;
          pump();
        }
      });
  }

  /** Resolves waiters whose files another instance finished (these, or the longest waiting first; a bounded number per call). */
  async function settleElsewhere(only?: Iterable<string>): Promise<void> {
    if (waiters.size === 0 || stopped) return;
    const keys = (only ? [...only].filter((key) => waiters.has(key)) : [...waiters.keys()]).slice(0, SETTLE_CHECK_MAX);
    if (keys.length === 0) return;
    const open = await jobs.unfinished(INGEST_JOB, keys);
    for (const key of keys) if (!open.has(key)) settle(key);
  }

  /** Jobs another instance announced ended, checked together once the announcements of one moment are in. */
  let ended = new Set<string>();
  let endedAll = false;
  let endedCheck = false;
  function checkEnded(): void {
    const keys = ended;
    const all = endedAll;
    ended = new Set();
    endedAll = false;
    endedCheck = false;
    void settleElsewhere(all ? undefined : keys).catch((error: unknown) => log.debug({ err: error }, 'checking files indexed elsewhere failed'));
  }

  // Woken by local enqueues and completions, and (several instances) by polls finding claimable jobs.
  const unwatch = jobs.watch(INGEST_JOB, () => {
    queuedHint = Math.max(queuedHint, 1);
    pump();
  });
  const unpoll = jobs.onPoll(() => void settleElsewhere().catch((error: unknown) => log.debug({ err: error }, 'checking files indexed elsewhere failed')));

  const ingestion = {
    /** Queues a file (already recorded as `pending`); resolves when it is completed or failed (here or on another instance). */
    enqueue(job: IngestJob, options: { again?: boolean } = { again: true }): Promise<void> {
      const key = ingestKey(job.collectionId, job.fileId);
      let waiter = waiters.get(key);
      if (!waiter) {
        let resolve!: () => void;
        const done = new Promise<void>((r) => (resolve = r));
        waiter = { done, resolve };
        waiters.set(key, waiter);
      }
      queuedHint += 1;
      if (job.knowledgeId === null) urgentHint += 1;
      jobs.enqueue(INGEST_JOB, key, job, { priority: job.knowledgeId === null ? 1 : 0, again: options.again }).catch((error: unknown) => {
        log.warn({ err: error, collectionId: job.collectionId, fileId: job.fileId }, 'could not queue a file for indexing');
        settle(key);
      });
      return waiter.done;
    },

    /**
     * Another instance ended the job of this file (`key`), or any (no key: the announcements were
     * interrupted): its waiters here are released now, once the jobs table agrees (it may have
     * been queued again meanwhile). The poll stays the fallback for announcements that never came.
     */
    jobEnded(key?: string): void {
      if (waiters.size === 0 || stopped || (key !== undefined && !waiters.has(key))) return;
      if (key === undefined) endedAll = true;
      else ended.add(key);
      if (endedCheck) return;
      endedCheck = true;
      setImmediate(checkEnded);
    },

    /** Resolves when a queued file is done (at once if it is not queued here). */
    async settled(collectionId: string, fileId: string): Promise<void> {
      await waiters.get(ingestKey(collectionId, fileId))?.done;
    },

    /** Resolves when everything queued here (including work queued meanwhile) is done. */
    async idle(): Promise<void> {
      while (waiters.size > 0) await Promise.all([...waiters.values()].map((w) => w.done));
    },

    /**
     * Queues files left `pending` or `processing` by a previous run that have no job running
     * (files queued before the jobs table existed; a job another instance runs is left alone).
     */
    async resume(): Promise<number> {
      const rows = await repo.withStatus(['pending', 'processing']);
      for (const row of rows) void ingestion.enqueue({ collectionId: row.collection_id, fileId: row.file_id, knowledgeId: row.knowledge_id, notify: [] }, { again: false });
      return rows.length;
    },

    /** Registers work to do after a file is indexed. */
    onFileIndexed(hook: FileIndexedHook): void {
      indexedHooks.push(hook);
    },

    /** Stops taking work (shutdown); the worker is stopped by its owner. Files not done stay queued (the job queue hands claimed ones back). */
    stop(): void {
      stopped = true;
      unwatch();
      unpoll();
      if (lingering) clearTimeout(lingering);
      lingering = undefined;
      for (const key of [...waiters.keys()]) settle(key);
    },
  };
  return ingestion;
}
export type Ingestion = ReturnType<typeof createIngestion>;
