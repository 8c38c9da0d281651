import type { ClaimedJob, JobQueue } from '../../platform/jobs';
import type { Logger } from '../../platform/log';

/** A file to index into a collection, and who hears about its progress. */
export interface IngestJob {
  collectionId: string;
  fileId: string;
  /** The knowledge base the collection is, or null for a loose (chat) file. */
  knowledgeId: string | null;
  /** Users told about progress (see the status listeners). */
  notify: readonly string[];
}

/** A claimed file of a batch; `failed` holds its reason once it could not be indexed. */
export interface Entry {
  job: IngestJob;
  claimed: ClaimedJob;
  failed?: string;
}

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

/** The job kind of ingestion in the jobs table… */
export const INGEST_JOB = 'ingest';
/** …and a file's job key (also what callers wait on). */
export const ingestKey = (collectionId: string, fileId: string) => `${collectionId}/${fileId}`;

export const reasonOf = (error: unknown) => `Indexing failed: ${error instanceof Error ? error.message : String(error)}`;

/** A batch's byte budget: answers whether a file of `size` bytes still fits (the first one always does). */
export function byteBudget(): (size: number) => boolean {
  let bytes = 0;
  let first = true;
  return (size) => {
    if (!first && bytes + size > BATCH_BYTES) return false;
    first = false;
    bytes += size;
    return true;
  };
}

/**
 * The ingestion queue: the jobs table (platform/jobs), one job per file, a batch is one claim of
 * several jobs and ends with one completion, so with several instances on one database each file
 * is indexed once, by whichever instance claims it, and a file whose instance died is taken over
 * when its lease runs out. Up to {@link LANES} batches run at once; chat files (someone waits for
 * them in a conversation) go before knowledge-base files, and a knowledge-base batch lingers
 * briefly for files added right after it. `run` does a batch's work; `ended` hears of every
 * batch whose jobs were recorded as ended.
 */
export function createIngestQueue(deps: { jobs: JobQueue; log: Logger; run: (batch: Entry[]) => Promise<void>; ended: (batch: readonly Entry[]) => void }) {
  const { jobs, log } = deps;
  /** Files enqueued here and not claimed yet (all, and chat files): the batching decisions' view of the queue. */
  let queuedHint = 0;
  let urgentHint = 0;
  let active = 0;
  let stopped = false;
  let lingering: NodeJS.Timeout | undefined;
  let claiming = false;
  let pumpAgain = false;

  /** The next batch: one claim of at most BATCH_FILES jobs, chat files first. */
  async function take(): Promise<Entry[]> {
    const claimed = await jobs.claim(INGEST_JOB, BATCH_FILES);
    queuedHint = Math.max(0, queuedHint - claimed.length);
    const entries: Entry[] = claimed.map((c) => ({ job: JSON.parse(c.payload) as IngestJob, claimed: c }));
    urgentHint = Math.max(0, urgentHint - entries.filter((e) => e.job.knowledgeId === null).length);
    return entries;
  }

  /** Ends a batch: one completion for its jobs (failed files' jobs record their reason), then its waiters. */
  async function finish(batch: Entry[]): Promise<void> {
    if (stopped) return;
    await jobs.complete(batch.filter((e) => e.failed === undefined).map((e) => e.claimed));
    for (const e of batch) if (e.failed !== undefined) await jobs.fail(e.claimed, e.failed);
    deps.ended(batch);
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
      void deps
        .run(batch)
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

  // Woken by local enqueues and completions, and (several instances) by polls finding claimable jobs.
  const unwatch = jobs.watch(INGEST_JOB, () => {
    queuedHint = Math.max(queuedHint, 1);
    pump();
  });

  return {
    /** True once stopped (shutdown): work under way ends without recording anything. */
    get stopped(): boolean {
      return stopped;
    },

    /** Queues a file's job (again, unless `again` is false and it exists); rejects when it could not be recorded. */
    enqueue(job: IngestJob, again: boolean | undefined): Promise<void> {
      queuedHint += 1;
      if (job.knowledgeId === null) urgentHint += 1;
      return jobs.enqueue(INGEST_JOB, ingestKey(job.collectionId, job.fileId), job, { priority: job.knowledgeId === null ? 1 : 0, again });
    },

    /** Hands claimed files back to the queue (over a batch's byte budget): claimed first next time. */
    async giveBack(entries: readonly Entry[]): Promise<void> {
      queuedHint += entries.length;
      await jobs.release(entries.map((e) => e.claimed));
    },

    /** Stops claiming (shutdown). Files not done stay queued (the job queue hands claimed ones back). */
    stop(): void {
      stopped = true;
      unwatch();
      if (lingering) clearTimeout(lingering);
      lingering = undefined;
    },
  };
}
export type IngestQueue = ReturnType<typeof createIngestQueue>;
