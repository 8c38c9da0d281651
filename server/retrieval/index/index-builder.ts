import type { DatabaseLocation } from '../../platform/db/knex';
import type { Logger } from '../../platform/log';
import { createWorkerRequests } from '../../platform/worker-requests';
import type { BuildProgress, BuildRequest } from './build-index';
import type { BuildReply } from './build-snapshot';

type Reply = { id: number; progress?: [number, number]; bytes?: Uint8Array; written?: boolean; error?: string; closed?: boolean };

/**
 * Builds collection indexes on a worker thread with its own database connection (SQLite opened
 * beside the service's one writer — WAL lets it read; PostgreSQL through a client of its own),
 * so a rebuild of 100k chunks never runs on the event loop that answers requests. Started on
 * first use, unreferenced while idle, restarted if it dies. {@link available} is false when no
 * worker can run (no database location given, or the built worker file is missing): callers
 * build in-process then.
 */
export function createIndexBuilder(deps: { database?: DatabaseLocation; log: Logger }) {
  const requests = createWorkerRequests<Reply>({ entry: 'retrieval/index/index-builder.worker', name: 'the index builder', log: deps.log });

  return {
    /** True when builds can run on the worker. */
    get available(): boolean {
      return requests.usable && deps.database !== undefined;
    },
    /**
     * Builds a collection's index on the worker: writes the snapshot to `file` (when given and
     * the collection did not change meanwhile) and, with `handOver`, answers its bytes.
     */
    build(request: BuildRequest, options: { file?: string; handOver: boolean; progress?: BuildProgress }): Promise<BuildReply> {
      if (!deps.database) return Promise.reject(new Error('the index builder is not available'));
      return requests.request<BuildReply>({ type: 'build', database: deps.database, request, file: options.file, handOver: options.handOver }, (reply) => {
        if (reply.progress) {
          options.progress?.(reply.progress[0], reply.progress[1]);
          return undefined;
        }
        return reply.error !== undefined ? { error: new Error(reply.error) } : { value: { bytes: reply.bytes, written: reply.written === true } };
      });
    },
    /** Closes the worker's database connection and stops it. */
    stop: () =>
      requests.stop(
        (w) =>
          new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, 2000);
            w.on('message', (reply: Reply) => {
              if (reply.closed) {
                clearTimeout(timer);
                resolve();
              }
            });
            w.postMessage({ type: 'close', id: 0 });
          }),
      ),
  };
}
export type IndexBuilder = ReturnType<typeof createIndexBuilder>;
