import { Worker } from 'node:worker_threads';
import { workerEntry } from '../../platform/worker-entry';
import type { Logger } from '../../platform/log';
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
  let worker: Worker | undefined;
  let nextId = 1;
  const waiting = new Map<number, { resolve: (r: ChunkExtraction[]) => void; reject: (e: Error) => void }>();

  function failAll(error: Error): void {
    for (const pending of waiting.values()) pending.reject(error);
    waiting.clear();
  }

  function start(): Worker | undefined {
    if (worker) return worker;
    const entry = workerEntry('graph/extract/graph-extract.worker');
    if (!entry) return undefined;
    try {
      const w = new Worker(entry.code, { eval: entry.eval });
      w.unref();
      w.on('message', (reply: Reply) => {
        const pending = waiting.get(reply.id);
        if (!pending) return;
        waiting.delete(reply.id);
        if (reply.ok && reply.result) pending.resolve(reply.result);
        else pending.reject(new Error(reply.error ?? 'unknown error'));
      });
      w.on('error', (error) => {
        log.warn({ err: error }, 'the graph extraction worker failed');
        if (worker === w) worker = undefined;
        failAll(error);
      });
      w.on('exit', () => {
        if (worker === w) worker = undefined;
        failAll(new Error('the graph extraction worker stopped'));
      });
      worker = w;
      return w;
    } catch (error) {
      log.warn({ err: error }, 'could not start the graph extraction worker; extracting in-process');
      return undefined;
    }
  }

  return {
    /** Entities and co-occurrence relations of each text, in order. */
    async extract(texts: readonly string[]): Promise<ChunkExtraction[]> {
      const w = start();
      if (!w) return (await import('./offline')).extractOffline(texts);
      const id = nextId;
      nextId += 1;
      return new Promise<ChunkExtraction[]>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        w.ref();
        w.postMessage({ id, texts });
      }).finally(() => {
        if (waiting.size === 0) worker?.unref();
      });
    },
    /** Stops the worker (shutdown). */
    async stop(): Promise<void> {
      const w = worker;
      worker = undefined;
      failAll(new Error('the service is stopping'));
      if (w) await w.terminate();
    },
  };
}
export type ExtractWorker = ReturnType<typeof createExtractWorker>;
