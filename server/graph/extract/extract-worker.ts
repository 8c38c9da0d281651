import type { Logger } from '../../platform/log';
import { createWorkerRequests } from '../../platform/worker-requests';
import type { ChunkExtraction } from './types';

interface Reply {
  id: number;
  ok: boolean;
  result?: ChunkExtraction[];
  error?: string;
}

/**
 * The offline extractor on one worker thread, started on first use, restarted if it dies, and
 * not keeping the process alive while idle. Where no worker can start it runs in-process.
 */
export function createExtractWorker(log: Logger) {
  const requests = createWorkerRequests<Reply>({ entry: 'graph/extract/graph-extract.worker', name: 'the graph extraction worker', log });
  return {
    /** Entities and co-occurrence relations of each text, in order. */
    async extract(texts: readonly string[]): Promise<ChunkExtraction[]> {
      if (!requests.ready()) return (await import('./offline')).extractOffline(texts);
      return requests.request<ChunkExtraction[]>({ texts }, (reply) => (reply.ok && reply.result ? { value: reply.result } : { error: new Error(reply.error ?? 'unknown error') }));
    },
    /** Stops the worker (shutdown). */
    stop: () => requests.stop(),
  };
}
export type ExtractWorker = ReturnType<typeof createExtractWorker>;
