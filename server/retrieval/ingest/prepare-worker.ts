import type { Logger } from '../../platform/log';
import { createWorkerRequests } from '../../platform/worker-requests';
import type { PrepareJob, PrepareOutcome } from './prepare';

interface Reply {
  id: number;
  outcomes: PrepareOutcome[];
}

/**
 * Runs batches of {@link PrepareJob}s on one worker thread (one round trip per batch), started on
 * first use and restarted if it dies. Where no worker can start, jobs run in-process (slower for
 * the event loop, still correct).
 */
export function createPrepareWorker(log: Logger) {
  const requests = createWorkerRequests<Reply>({ entry: 'retrieval/ingest/ingest.worker', name: 'the ingestion worker', log });
  return {
    /** Prepares files on the worker (or in-process as a fallback); one outcome per job, in order. */
    async run(jobs: readonly PrepareJob[]): Promise<PrepareOutcome[]> {
      if (!requests.ready()) return (await import('./prepare')).prepareMany(jobs);
      return requests.request({ jobs }, (reply) => ({ value: reply.outcomes }));
    },
    /** Stops the worker. */
    stop: () => requests.stop(),
  };
}
export type PrepareWorker = ReturnType<typeof createPrepareWorker>;
