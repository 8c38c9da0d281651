import { availableParallelism } from 'node:os';
import type { WebSearchResult } from '../../contracts/web';
import type { Logger } from '../../platform/log';
import { createWorkerRequests } from '../../platform/worker-requests';
import type { PageInput, PageText } from './page-extract';

interface Reply {
  id: number;
  ok: boolean;
  value?: unknown;
  error?: string;
}

/** Reading threads: pages of one search are extracted side by side (at most two: the service keeps a core). */
const THREADS = Math.max(1, Math.min(2, availableParallelism() - 1));

/** Longest a page's extraction may take; past it the thread is stopped (a page Readability cannot finish) and the page is skipped. */
const PAGE_TIMEOUT_MS = 20_000;

/**
 * Page text extraction off the service's thread (a DOM and Readability on a 1 MB page take tens
 * to hundreds of milliseconds of CPU): up to {@link THREADS} worker threads, each started on first
 * use, a page going to the one with the fewest waiting. Where no worker can start it runs
 * in-process, still correct.
 */
export function createPageExtractor(log: Logger) {
  const pool = Array.from({ length: THREADS }, (_, i) => ({ waiting: 0, requests: createWorkerRequests<Reply>({ entry: 'web/extract/page-extract.worker', name: `web reading worker ${i + 1}`, log }) }));
  const settle = <T>(reply: Reply) => (reply.ok ? { value: reply.value as T } : { error: new Error(reply.error ?? 'extraction failed') });
  /** The least busy worker (the first one is started before a second is). */
  const pick = () => pool.reduce((best, w) => (w.waiting < best.waiting ? w : best), pool[0]!);
  const run = async <T>(message: Record<string, unknown>, transfer?: ArrayBuffer[]): Promise<T> => {
    const worker = pick();
    worker.waiting += 1;
    try {
      return await worker.requests.request<T>(message, settle<T>, { transfer, timeoutMs: PAGE_TIMEOUT_MS });
    } finally {
      worker.waiting -= 1;
    }
  };
  const requests = pool[0]!.requests;
  return {
    /** A fetched page's readable text; its bytes move to the worker (the buffer is not usable afterwards). */
    async page(page: PageInput): Promise<PageText> {
      if (!requests.ready()) return (await import('./page-extract')).pageText(page);
      // A copy that can be transferred whole (a Buffer may be a slice of a shared pool).
      const body = page.body.byteOffset === 0 && page.body.byteLength === page.body.buffer.byteLength ? page.body : page.body.slice();
      return run<PageText>({ kind: 'page', page: { ...page, body } }, [body.buffer as ArrayBuffer]);
    },
    /** DuckDuckGo's result page parsed. */
    async duckduckgo(html: string): Promise<WebSearchResult[]> {
      if (!requests.ready()) return (await import('./page-extract')).duckduckgoResults(html);
      return run<WebSearchResult[]>({ kind: 'ddg', html });
    },
    stop: async () => {
      await Promise.all(pool.map((w) => w.requests.stop()));
    },
  };
}
export type PageExtractor = ReturnType<typeof createPageExtractor>;
