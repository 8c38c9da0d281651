import type { ConfigService } from '../../config';
import type { FileStatus } from '../../contracts/knowledge';
import type { FileRow, FilesService } from '../../files';
import type { Clock } from '../../platform/clock';
import type { Logger } from '../../platform/log';
import { assertOutboundAllowed } from '../../platform/net/outbound';
import type { Embedder } from '../embedding/embedder';
import type { EmbeddingService } from '../embedding/embedding.service';
import { RetrievalSection } from '../retrieval-config';
import { fileKey, type RetrievalRepo } from '../retrieval.repo';
import type { PreparedChunk, RetrievalService, StoreItem } from '../retrieval.service';
import { unpackChunks } from './packed-chunks';
import type { PrepareJob, PrepareResult } from './prepare';
import type { PrepareWorker } from './prepare-worker';
import { byteBudget, reasonOf, type Entry, type IngestJob } from './queue';

/** Called after a file's chunks are stored (the knowledge graph hooks in here). */
export type FileIndexedHook = (event: { collectionId: string; fileId: string; knowledgeId: string | null; chunks: number }) => Promise<void> | void;

/** A file's ingestion moved on: its state, how far (0..1), and why it failed. */
export interface FileProgress {
  status: FileStatus;
  progress: number;
  error?: string;
}

/** Hears every step of every file (the knowledge file lists and their realtime events follow it). */
export type FileStatusListener = (job: IngestJob, progress: FileProgress) => void;

/** A file of a batch with its stored row and, once prepared, its chunks. */
interface Work {
  entry: Entry;
  file: FileRow;
  prepared?: PrepareResult;
  /** The prepared chunks, unpacked. */
  chunks?: PreparedChunk[];
  vectors?: Array<Float32Array | null>;
}

/** Longest pause after storing a batch (see run). */
const STORE_PAUSE_MAX_MS = 100;
/**
 * Claims of a file's job before it is given up: a job claimed this often without finishing was
 * under way each time the service stopped or died (a file that stops the worker is refused at
 * once; one that somehow takes the whole process down must not do it again at every start).
 */
export const MAX_TRIES = 3;

/**
 * What happens to one batch of files: gather (their rows, within the byte budget) → prepare on the
 * worker (extract, chunk, analyse, offline-embed) → embed (a provider's vectors) → store (one
 * transaction, then the indexes in memory) → hooks. Each file's state in `collection_files` moves
 * `pending` → `processing` → `completed` | `failed` (with the reason), told to `status` at each
 * step. A file is stored whole or not at all.
 */
export function createIngestPipeline(deps: {
  repo: RetrievalRepo;
  service: Pick<RetrievalService, 'storeMany'>;
  files: Pick<FilesService, 'findMany' | 'pathOf'>;
  worker: PrepareWorker;
  embeddings: Pick<EmbeddingService, 'current'>;
  config: ConfigService;
  clock: Clock;
  log: Logger;
  /** True once ingestion stopped (shutdown): nothing more is recorded. */
  stopped: () => boolean;
  /** Hands files over the byte budget back to the queue. */
  giveBack: (entries: readonly Entry[]) => Promise<void>;
  status: FileStatusListener;
}) {
  const { repo, files, worker, embeddings, config, clock, log, stopped, status } = deps;
  const indexedHooks: FileIndexedHook[] = [];

  async function fail(entry: Entry, reason: string): Promise<void> {
    if (stopped()) return;
    const { job } = entry;
    entry.failed = reason;
    await repo.setStatus(job.collectionId, job.fileId, 'failed', reason, clock.now());
    status(job, { status: 'failed', progress: 1, error: reason });
    log.info({ collectionId: job.collectionId, fileId: job.fileId, reason }, 'a file could not be indexed');
  }

  /**
   * Looks the batch's files up (those not failed already); those over the byte budget leave the
   * batch and go back to the queue (claimed first next time).
   */
  async function gather(batch: Entry[]): Promise<Work[]> {
    const rows = new Map((await files.findMany(batch.filter((e) => e.failed === undefined).map((e) => e.job.fileId))).map((f) => [f.id, f]));
    const fits = byteBudget();
    const work: Work[] = [];
    for (let i = 0; i < batch.length; i += 1) {
      const entry = batch[i]!;
      if (entry.failed !== undefined) continue;
      const file = rows.get(entry.job.fileId);
      if (!file) {
        await fail(entry, 'The file no longer exists');
        continue;
      }
      if (!fits(file.size)) {
        const rest = batch.splice(i);
        batch.push(...rest.filter((e) => e.failed !== undefined));
        await deps.giveBack(rest.filter((e) => e.failed === undefined));
        break;
      }
      work.push({ entry, file });
    }
    return work;
  }

  /** Moves the gathered files that are still in their collections to `processing`; the others left meanwhile. */
  async function claim(work: Work[]): Promise<Work[]> {
    const claimed = await repo.claim(
      work.map((w) => w.entry.job),
      'processing',
      clock.now(),
    );
    const kept = work.filter((w) => claimed.has(fileKey(w.entry.job.collectionId, w.entry.job.fileId)));
    for (const w of kept) status(w.entry.job, { status: 'processing', progress: 0.1 });
    return kept;
  }

  /** Extract → chunk → analyse (→ offline embed) on the worker, one round trip for the batch. */
  async function prepare(work: Work[], embedder: Embedder): Promise<Work[]> {
    const cfg = await config.get(RetrievalSection);
    const externalUrl = cfg.CONTENT_EXTRACTION_ENGINE === 'external' && cfg.EXTERNAL_DOCUMENT_LOADER_URL !== '' ? cfg.EXTERNAL_DOCUMENT_LOADER_URL : undefined;
    // The worker thread makes these calls; the offline guard is asked here, before the files go to it.
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
    if (stopped()) return [];
    const prepared: Work[] = [];
    for (let i = 0; i < work.length; i += 1) {
      const outcome = outcomes[i];
      const w = work[i]!;
      if (!outcome) await fail(w.entry, reasonOf('no result'));
      else if (!outcome.ok) await fail(w.entry, outcome.reason ? outcome.error : reasonOf(outcome.error));
      else {
        w.prepared = outcome.result;
        w.chunks = unpackChunks(outcome.result.chunks);
        status(w.entry.job, { status: 'processing', progress: 0.5 });
        prepared.push(w);
      }
    }
    return prepared;
  }

  /** Vectors of each prepared file: the worker's offline ones, or the provider's (a failing provider fails that file). */
  async function embed(embedder: Embedder, work: Work[]): Promise<Work[]> {
    const ready: Work[] = [];
    for (const w of work) {
      const prepared = w.prepared!;
      if (prepared.vectors && embedder.offline) {
        const packed = prepared.vectors;
        w.vectors = w.chunks!.map((_, i) => packed.subarray(i * prepared.dims, (i + 1) * prepared.dims));
        ready.push(w);
        continue;
      }
      try {
        w.vectors = await embedder.embed(w.chunks!.map((c) => c.text));
        ready.push(w);
      } catch (error) {
        await fail(w.entry, reasonOf(error));
      }
    }
    return ready;
  }

  /** Stores the batch's chunks in one transaction and the indexes; answers, per file, whether it was stored. */
  async function store(work: Work[], embedder: Embedder): Promise<boolean[]> {
    const items: StoreItem[] = work.map((w) => ({
      collectionId: w.entry.job.collectionId,
      fileId: w.entry.job.fileId,
      chunks: w.chunks!,
      vectors: w.vectors!,
      terms: w.prepared!.terms,
      language: w.prepared!.language,
    }));
    const storing = performance.eventLoopUtilization();
    const stored = await deps.service.storeMany(items, embedder.model);
    // Storing is partly main-thread work (SQLite bindings, indexing): give requests as much time
    // again as the event loop was busy meanwhile (not the time SQLite's own thread took) before
    // the next batch stores.
    await new Promise((resolve) => setTimeout(resolve, Math.min(STORE_PAUSE_MAX_MS, performance.eventLoopUtilization(storing).active)));
    return stored;
  }

  async function runHooks(job: IngestJob, chunks: number): Promise<void> {
    for (const hook of indexedHooks) {
      try {
        await hook({ collectionId: job.collectionId, fileId: job.fileId, knowledgeId: job.knowledgeId, chunks });
      } catch (error) {
        log.warn({ err: error }, 'a file-indexed hook failed');
      }
    }
  }

  return {
    /** Indexes one claimed batch; files that fail are marked on their entries (`failed`). */
    async run(batch: Entry[]): Promise<void> {
      for (const entry of batch.filter((e) => e.claimed.runs > MAX_TRIES)) {
        await fail(entry, `Indexing was given up after ${MAX_TRIES} tries: the service stopped each time while this file was being indexed`);
      }
      let work = await gather(batch);
      if (work.length === 0 || stopped()) return;
      work = await claim(work);
      if (work.length === 0) return;
      try {
        const embedder = await embeddings.current();
        work = await embed(embedder, await prepare(work, embedder));
        if (work.length === 0 || stopped()) return;
        const stored = await store(work, embedder);
        for (let i = 0; i < work.length; i += 1) {
          if (!stored[i]) continue;
          const job = work[i]!.entry.job;
          status(job, { status: 'completed', progress: 1 });
          await runHooks(job, work[i]!.chunks!.length);
        }
      } catch (error) {
        if (stopped()) return;
        // The worker died, the provider could not be built, or the transaction failed: every file of the batch not stored yet fails.
        for (const w of work) {
          const row = await repo.findFile(w.entry.job.collectionId, w.entry.job.fileId);
          if (row?.status === 'processing') await fail(w.entry, reasonOf(error));
        }
      }
    },

    /** Registers work to do after a file is indexed. */
    onFileIndexed(hook: FileIndexedHook): void {
      indexedHooks.push(hook);
    },
  };
}
export type IngestPipeline = ReturnType<typeof createIngestPipeline>;
