import type { ConfigService } from '../../config';
import type { FilesService } from '../../files';
import type { Clock } from '../../platform/clock';
import type { JobQueue } from '../../platform/jobs';
import type { Logger } from '../../platform/log';
import type { EmbeddingService } from '../embedding/embedding.service';
import type { RetrievalRepo } from '../retrieval.repo';
import type { RetrievalService } from '../retrieval.service';
import { createIngestPipeline, type FileIndexedHook, type FileStatusListener } from './pipeline';
import type { PrepareWorker } from './prepare-worker';
import { createIngestQueue, INGEST_JOB, ingestKey, type IngestJob } from './queue';
import { createWaiters } from './waiters';

/**
 * Background ingestion: a file in a collection → searchable chunks. The queue
 * ({@link createIngestQueue}) claims batches of files from the jobs table, the pipeline
 * ({@link createIngestPipeline}) turns each batch into stored, indexed chunks, and the waiters
 * ({@link createWaiters}) release callers when their file is done, here or on another instance.
 * Files queued meanwhile travel together: one status update, one worker round trip and one
 * transaction per batch (not per file, nor per chunk).
 */
export function createIngestion(deps: {
  repo: RetrievalRepo;
  service: Pick<RetrievalService, 'storeMany'>;
  files: Pick<FilesService, 'findMany' | 'pathOf'>;
  worker: PrepareWorker;
  embeddings: Pick<EmbeddingService, 'current'>;
  config: ConfigService;
  jobs: JobQueue;
  clock: Clock;
  log: Logger;
}) {
  const { repo, log } = deps;
  const listeners: FileStatusListener[] = [];
  const waiters = createWaiters({ jobs: deps.jobs, kind: INGEST_JOB, log });
  const queue = createIngestQueue({
    jobs: deps.jobs,
    log,
    run: (batch) => pipeline.run(batch),
    ended: (batch) => {
      for (const e of batch) waiters.settle(ingestKey(e.job.collectionId, e.job.fileId));
    },
  });
  const pipeline = createIngestPipeline({
    ...deps,
    stopped: () => queue.stopped,
    giveBack: (entries) => queue.giveBack(entries),
    status: (job, progress) => {
      for (const listener of listeners) listener(job, progress);
    },
  });

  const ingestion = {
    /** Queues a file (already recorded as `pending`); resolves when it is completed or failed (here or on another instance). */
    enqueue(job: IngestJob, options: { again?: boolean } = { again: true }): Promise<void> {
      const key = ingestKey(job.collectionId, job.fileId);
      const done = waiters.wait(key);
      queue.enqueue(job, options.again).catch((error: unknown) => {
        log.warn({ err: error, collectionId: job.collectionId, fileId: job.fileId }, 'could not queue a file for indexing');
        waiters.settle(key);
      });
      return done;
    },

    /**
     * Another instance ended the job of this file (`key`), or any (no key: the announcements were
     * interrupted): its waiters here are released now, once the jobs table agrees. The poll stays
     * the fallback for announcements that never came.
     */
    jobEnded: waiters.jobEnded,

    /** Resolves when a queued file is done (at once if it is not queued here). */
    settled: (collectionId: string, fileId: string): Promise<void> => waiters.settled(ingestKey(collectionId, fileId)),

    /** Resolves when everything queued here (including work queued meanwhile) is done. */
    idle: waiters.idle,

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
    onFileIndexed: (hook: FileIndexedHook): void => pipeline.onFileIndexed(hook),

    /** Hears every state and progress step of every file. */
    onFileStatus(listener: FileStatusListener): void {
      listeners.push(listener);
    },

    /** Stops taking work (shutdown); the worker is stopped by its owner. Files not done stay queued (the job queue hands claimed ones back). */
    stop(): void {
      queue.stop();
      waiters.stop();
    },
  };
  return ingestion;
}
export type Ingestion = ReturnType<typeof createIngestion>;
