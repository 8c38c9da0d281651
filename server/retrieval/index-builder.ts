import { Worker } from 'node:worker_threads';
import type { DatabaseLocation } from '../platform/db/knex';
import type { Logger } from '../platform/log';
import { workerEntry } from '../platform/worker-entry';
import type { BuildProgress, BuildRequest } from './index-build';
import type { BuildReply } from './index-builder-core';

type Reply = { id: number; progress?: [number, number]; bytes?: Uint8Array; written?: boolean; error?: string; closed?: boolean };

interface Waiting {
  resolve: (reply: BuildReply) => void;
  reject: (error: Error) => void;
  progress?: BuildProgress;
}

/**
 * Builds collection indexes on a worker thread with its own database connection (SQLite opened
 * beside the service's one writer — WAL lets it read; PostgreSQL through a client of its own),
 * so a rebuild of 100k chunks never runs on the event loop that answers requests. Started on
 * first use, unreferenced while idle, restarted if it dies. {@link available} is false when no
 * worker can run (no database location given, or the built worker file is missing): callers
 * build in-process then.
 */
export function createIndexBuilder(deps: { database?: DatabaseLocation; log: Logger }) {
  let worker: Worker | undefined;
  let broken = false;
  let nextId = 1;
  const waiting = new Map<number, Waiting>();

  function failAll(error: Error): void {
    for (const pending of waiting.values()) pending.reject(error);
    waiting.clear();
  }

  function start(): Worker | undefined {
    if (worker || broken || !deps.database) return worker;
    const entry = workerEntry('retrieval/index-builder.worker');
    if (!entry) {
      broken = true;
      return undefined;
    }
    try {
      const w = new Worker(entry.code, { eval: entry.eval });
      w.unref();
      w.on('message', (reply: Reply) => {
        const pending = waiting.get(reply.id);
        if (!pending) return;
        if (reply.progress) {
          pending.progress?.(reply.progress[0], reply.progress[1]);
          return;
        }
        waiting.delete(reply.id);
        if (waiting.size === 0) w.unref();
        if (reply.error !== undefined) pending.reject(new Error(reply.error));
        else pending.resolve({ bytes: reply.bytes, written: reply.written === true });
      });
      w.on('error', (error) => {
        deps.log.warn({ err: error }, 'the index builder failed');
        if (worker === w) worker = undefined;
        failAll(error);
      });
      w.on('exit', () => {
        if (worker === w) worker = undefined;
        failAll(new Error('the index builder stopped'));
      });
      worker = w;
      return w;
    } catch (error) {
      deps.log.warn({ err: error }, 'could not start the index builder; building indexes in-process');
      broken = true;
      return undefined;
    }
  }

  return {
    /** True when builds can run on the worker. */
    get available(): boolean {
      return !broken && deps.database !== undefined;
    },
    /**
     * Builds a collection's index on the worker: writes the snapshot to `file` (when given and
     * the collection did not change meanwhile) and, with `handOver`, answers its bytes.
     */
    build(request: BuildRequest, options: { file?: string; handOver: boolean; progress?: BuildProgress }): Promise<BuildReply> {
      const w = start();
      if (!w) return Promise.reject(new Error('the index builder is not available'));
      const id = nextId;
      nextId += 1;
      return new Promise<BuildReply>((resolve, reject) => {
        waiting.set(id, { resolve, reject, progress: options.progress });
        w.ref();
        w.postMessage({ type: 'build', id, database: deps.database, request, file: options.file, handOver: options.handOver });
      });
    },
    /** Closes the worker's database connection and stops it. */
    async stop(): Promise<void> {
      const w = worker;
      worker = undefined;
      broken = true;
      if (!w) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 2000);
        w.on('message', (reply: Reply) => {
          if (reply.closed) {
            clearTimeout(timer);
            resolve();
          }
        });
        w.postMessage({ type: 'close', id: 0 });
      });
      failAll(new Error('the service is stopping'));
      await w.terminate();
    },
  };
}
export type IndexBuilder = ReturnType<typeof createIndexBuilder>;
