import { Worker } from 'node:worker_threads';
import { workerEntry } from '../../platform/worker-entry';
import type { Logger } from '../../platform/log';
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
  let worker: Worker | undefined;
  let nextId = 1;
  const waiting = new Map<number, { resolve: (r: PrepareOutcome[]) => void; reject: (e: Error) => void }>();

  function failAll(error: Error): void {
    for (const pending of waiting.values()) pending.reject(error);
    waiting.clear();
  }

  function start(): Worker | undefined {
    if (worker) return worker;
    const entry = workerEntry('knowledge/ingest/ingest.worker');
    if (!entry) return undefined;
    try {
      const w = new Worker(entry.code, { eval: entry.eval });
      w.unref();
      w.on('message', (reply: Reply) => {
        const pending = waiting.get(reply.id);
        if (!pending) return;
        waiting.delete(reply.id);
        pending.resolve(reply.outcomes);
      });
      w.on('error', (error) => {
        log.warn({ err: error }, 'the ingestion worker failed');
        worker = undefined;
        failAll(error);
      });
      w.on('exit', () => {
        if (worker === w) worker = undefined;
        failAll(new Error('the ingestion worker stopped'));
      });
      worker = w;
      return w;
    } catch (error) {
      log.warn({ err: error }, 'could not start the ingestion worker; ingesting in-process');
      return undefined;
    }
  }

  return {
    /** Prepares files on the worker (or in-process as a fallback); one outcome per job, in order. */
    async run(jobs: readonly PrepareJob[]): Promise<PrepareOutcome[]> {
      const w = start();
      if (!w) return (await import('./prepare')).prepareMany(jobs);
      const id = nextId;
      nextId += 1;
      return new Promise<PrepareOutcome[]>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        w.ref();
        w.postMessage({ id, jobs });
      }).finally(() => {
        if (waiting.size === 0) worker?.unref();
      });
    },
    /** Stops the worker. */
    async stop(): Promise<void> {
      const w = worker;
      worker = undefined;
      failAll(new Error('the service is stopping'));
      if (w) await w.terminate();
    },
  };
}
export type PrepareWorker = ReturnType<typeof createPrepareWorker>;
