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

/**
 * Page text extraction on its own worker thread (jsdom and Readability on a 1 MB page take
 * hundreds of milliseconds of CPU), started on first use. Where no worker can start it runs
 * in-process, still correct.
 */
export function createPageExtractor(log: Logger) {
  const requests = createWorkerRequests<Reply>({ entry: 'web/extract/page-extract.worker', name: 'the web reading worker', log });
  const settle = <T>(reply: Reply) => (reply.ok ? { value: reply.value as T } : { error: new Error(reply.error ?? 'extraction failed') });
  return {
    /** A fetched page's readable text; its bytes move to the worker (the buffer is not usable afterwards). */
    async page(page: PageInput): Promise<PageText> {
      if (!requests.ready()) return (await import('./page-extract')).pageText(page);
      // A copy that can be transferred whole (a Buffer may be a slice of a shared pool).
      const body = page.body.byteOffset === 0 && page.body.byteLength === page.body.buffer.byteLength ? page.body : page.body.slice();
      return requests.request<PageText>({ kind: 'page', page: { ...page, body } }, settle<PageText>, [body.buffer as ArrayBuffer]);
    },
    /** DuckDuckGo's result page parsed. */
    async duckduckgo(html: string): Promise<WebSearchResult[]> {
      if (!requests.ready()) return (await import('./page-extract')).duckduckgoResults(html);
      return requests.request<WebSearchResult[]>({ kind: 'ddg', html }, settle<WebSearchResult[]>);
    },
    stop: () => requests.stop(),
  };
}
export type PageExtractor = ReturnType<typeof createPageExtractor>;
