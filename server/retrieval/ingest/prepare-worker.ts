import type { Logger } from '../../platform/log';
import { createWorkerRequests } from '../../platform/worker-requests';
import type { PrepareJob, PrepareOutcome } from './prepare';
import type { PreviewJob, PreviewResult } from './preview';

type Reply = { id: number } & ({ outcomes: PrepareOutcome[] } | { preview: PreviewResult } | { error: string });

/** What one file may cost the ingestion worker before it is stopped. */
export interface WorkerLimits {
  /** Heap of the worker thread (V8's old generation), MB. */
  memoryMb: number;
  /** Time one file may take (a batch of n files: n times this), ms. */
  msPerFile: number;
}

export const DEFAULT_WORKER_LIMITS: WorkerLimits = { memoryMb: 1024, msPerFile: 120_000 };

/** Why the worker could not finish a file (it ran out of memory or time, or stopped): a reason a user can read. */
export function workerFailureReason(error: unknown, limits: WorkerLimits): string {
  const code = (error as { code?: string } | undefined)?.code;
  if (code === 'ERR_WORKER_OUT_OF_MEMORY') return `The file was refused: reading it needs more memory than indexing allows (${limits.memoryMb} MB)`;
  if (code === 'ERR_WORKER_TIMEOUT') return `The file was refused: reading it takes longer than indexing allows (${Math.round(limits.msPerFile / 1000)} s)`;
  return `The file was refused: it stopped the ingestion worker (${error instanceof Error ? error.message : String(error)})`;
}

/** True when the worker itself failed (memory, time, a crash), not the file's extraction. */
export const isWorkerFailure = (error: unknown) => ['ERR_WORKER_OUT_OF_MEMORY', 'ERR_WORKER_TIMEOUT', 'ERR_WORKER_STOPPED'].includes((error as { code?: string } | undefined)?.code ?? '');

/**
 * Runs extraction on one worker thread, under memory and time limits, so no file — a zip bomb, a
 * page Readability chokes on, a PDF whose streams explode — can stall or end the service: a file
 * past the limits stops the worker (started again for the next request), not the process, and is
 * refused with the reason.
 * Requests run one at a time, so a failure belongs to the request that was running. Where no
 * worker can start the work is refused (never done on the service's thread).
 */
export function createPrepareWorker(log: Logger, limits: WorkerLimits = DEFAULT_WORKER_LIMITS) {
  const requests = createWorkerRequests<Reply>({ entry: 'retrieval/ingest/ingest.worker', name: 'the ingestion worker', log, resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb } });
  let last: Promise<unknown> = Promise.resolve();

  /** Posts `message` once the request before it ended. */
  function inTurn<T>(message: Record<string, unknown>, files: number, pick: (reply: Reply) => T): Promise<T> {
    const run = last.then(() =>
      requests.request<T>(message, (reply) => ('error' in reply ? { error: new Error(reply.error) } : { value: pick(reply) }), { timeoutMs: limits.msPerFile * Math.max(1, files) }),
    );
    last = run.catch(() => undefined);
    return run;
  }

  /**
   * The outcomes of a batch. When the worker fails on it (out of memory, out of time, stopped),
   * each file is tried alone, so the one that did it is refused with the reason and the others
   * go on.
   */
  async function run(jobs: readonly PrepareJob[]): Promise<PrepareOutcome[]> {
    try {
      return await inTurn({ jobs }, jobs.length, (reply) => ('outcomes' in reply ? reply.outcomes : []));
    } catch (error) {
      if (!isWorkerFailure(error)) throw error;
      if (jobs.length === 1) return [{ ok: false, error: workerFailureReason(error, limits), reason: true }];
      log.warn({ err: error, files: jobs.length }, 'the ingestion worker failed on a batch; trying its files one by one');
      const outcomes: PrepareOutcome[] = [];
      for (const job of jobs) outcomes.push(...(await run([job])));
      return outcomes;
    }
  }

  return {
    limits,
    /** Prepares files on the worker; one outcome per job, in order (a file the worker cannot survive fails with the reason). */
    run,
    /** A file's text for its preview (the beginning of it). Rejects when the worker failed. */
    preview(job: PreviewJob): Promise<PreviewResult> {
      return inTurn({ preview: job }, 1, (reply) => ('preview' in reply ? reply.preview : { text: null, error: 'no answer', truncated: false }));
    },
    /** Stops the worker. */
    stop: () => requests.stop(),
  };
}
export type PrepareWorker = ReturnType<typeof createPrepareWorker>;
