import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { Logger } from './log';
import { workerEntry } from './worker-entry';

/** A message from the worker: the id of the request it answers (interim replies, such as progress, too). */
export interface WorkerReply {
  id: number;
}

/** What a reply does to its request: `undefined` keeps it waiting (an interim reply), else its value or error. */
export type ReplyOutcome<T> = { value: T } | { error: Error } | undefined;

interface Pending<R> {
  /** Handles a reply; true when it ended the request. */
  reply: (reply: R) => boolean;
  reject: (error: Error) => void;
  /** The thread it was posted to (one that dies fails only its own requests). */
  on: Worker;
}

/**
 * One worker thread answering numbered requests, for work kept off the service's event loop:
 * started on first use, started again after it dies (every request waiting then fails), and
 * referenced only while a request waits, so an idle worker never keeps the process alive.
 * {@link usable} turns false for good when no worker can start (the built worker file is missing,
 * or it cannot be constructed) and after {@link stop}: callers then do the work in-process.
 * `name` names the worker in logs and errors ("the ingestion worker"). With `resourceLimits` the
 * worker is stopped (not the process) when its heap outgrows them: every request waiting fails
 * with Node's `ERR_WORKER_OUT_OF_MEMORY`. A request given `timeoutMs` that is not answered in time
 * fails with `ERR_WORKER_TIMEOUT`, and the worker is stopped (others waiting fail too).
 */
export function createWorkerRequests<R extends WorkerReply>(options: { entry: string; name: string; log: Logger; resourceLimits?: ResourceLimits }) {
  const { name, log } = options;
  let worker: Worker | undefined;
  let unusable = false;
  let nextId = 1;
  const waiting = new Map<number, Pending<R>>();

  /** Fails the requests waiting on `w` (every request without one). */
  function failAll(error: Error, w?: Worker): void {
    for (const [id, pending] of waiting) {
      if (w && pending.on !== w) continue;
      waiting.delete(id);
      pending.reject(error);
    }
  }

  function start(): Worker | undefined {
    if (worker || unusable) return worker;
    const entry = workerEntry(options.entry);
    if (!entry) {
      // A build without this worker's file: say so once, the work still gets done.
      log.warn(`the built file of ${name} is missing; working in-process`);
      unusable = true;
      return undefined;
    }
    try {
      const w = new Worker(entry.code, { eval: entry.eval, resourceLimits: options.resourceLimits });
      w.unref();
      w.on('message', (reply: R) => {
        const pending = waiting.get(reply.id);
        if (pending?.reply(reply)) waiting.delete(reply.id);
      });
      w.on('error', (error) => {
        log.warn({ err: error }, `${name} failed`);
        if (worker === w) worker = undefined;
        failAll(error, w);
      });
      w.on('exit', () => {
        if (worker === w) worker = undefined;
        failAll(Object.assign(new Error(`${name} stopped`), { code: 'ERR_WORKER_STOPPED' }), w);
      });
      worker = w;
      return w;
    } catch (error) {
      log.warn({ err: error }, `could not start ${name}; working in-process`);
      unusable = true;
      return undefined;
    }
  }

  return {
    /** False once no worker can run (never started, or stopped): do the work in-process. */
    get usable(): boolean {
      return !unusable;
    },
    /** True when the worker runs or has just been started. */
    ready(): boolean {
      return start() !== undefined;
    },
    /**
     * Posts `message` with a fresh `id`; `settle` sees every reply to it and says when one ends
     * it. Rejects when no worker can run, or when the worker dies or stops first (or takes longer
     * than `timeoutMs`). Buffers in `transfer` move to the worker instead of being copied.
     */
    request<T>(message: Record<string, unknown>, settle: (reply: R) => ReplyOutcome<T>, options: { timeoutMs?: number; transfer?: readonly ArrayBuffer[] } = {}): Promise<T> {
      const { transfer, ...limits } = options;
      const w = start();
      if (!w) return Promise.reject(new Error(`${name} is not available`));
      const id = nextId;
      nextId += 1;
      let timer: NodeJS.Timeout | undefined;
      return new Promise<T>((resolve, reject) => {
        const reply = (r: R) => {
          const outcome = settle(r);
          if (!outcome) return false;
          if ('error' in outcome) reject(outcome.error);
          else resolve(outcome.value);
          return true;
        };
        waiting.set(id, { reply, reject, on: w });
        if (limits.timeoutMs !== undefined) {
          timer = setTimeout(() => {
            waiting.delete(id);
            reject(Object.assign(new Error(`${name} took longer than ${Math.round(limits.timeoutMs! / 1000)} s`), { code: 'ERR_WORKER_TIMEOUT' }));
            // The work may be stuck for good: stop the thread (it is started again for the next request).
            if (worker === w) worker = undefined;
            void w.terminate();
          }, limits.timeoutMs);
        }
        w.ref();
        w.postMessage({ ...message, id }, transfer ? [...transfer] : undefined);
      }).finally(() => {
        clearTimeout(timer);
        if (waiting.size === 0) worker?.unref();
      });
    },
    /**
     * Stops the worker for good (shutdown): `farewell` may first ask it to close what it holds;
     * requests still waiting fail.
     */
    async stop(farewell?: (w: Worker) => Promise<void>): Promise<void> {
      const w = worker;
      worker = undefined;
      unusable = true;
      if (w && farewell) await farewell(w);
      failAll(new Error('the service is stopping'));
      if (w) await w.terminate();
    },
  };
}
