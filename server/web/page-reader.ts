import { urlAllowed, type DomainFilter } from './domain-filter';
import type { PageExtractor } from './extract/extract-client';
import type { PageText } from './extract/page-extract';
import { webUrl } from './fetch/bounded-request';
import { asWebFetchError, WebFetchError } from './fetch/fetch-errors';
import type { PageFetcher } from './fetch/page-fetcher';

/** A page that could not be read, and why (for the user). */
export interface PageFailure {
  url: string;
  error: string;
  code: string;
}

/** Every page asked for, read or failed, in the order asked. */
export type PageOutcome = ({ ok: true } & PageText) | ({ ok: false } & PageFailure);

/** Reads one page: fetched within the limits, its text extracted on the worker. */
export async function readPage(fetcher: PageFetcher, extractor: PageExtractor, filter: DomainFilter, url: string, signal?: AbortSignal): Promise<PageText> {
  webUrl(url); // a clear reason for a URL that is not http(s) before the domain list is asked
  if (!urlAllowed(filter, url)) throw new WebFetchError('BAD_URL', 'This site is not on the list of sites web search may read');
  const page = await fetcher.fetch(url, signal);
  // A redirect may lead off the allowed domains.
  if (!urlAllowed(filter, page.url)) throw new WebFetchError('BAD_URL', 'The page redirected to a site web search may not read');
  let text: PageText;
  try {
    text = await extractor.page({ url: page.url, mediaType: page.mediaType, charset: page.charset, body: page.body });
  } catch (error) {
    throw new WebFetchError('NOT_TEXT', `The page could not be read as text${error instanceof Error && error.message ? ` (${error.message})` : ''}`);
  }
  if (text.text.trim() === '') throw new WebFetchError('NOT_TEXT', 'The page holds no readable text');
  return text;
}

/**
 * Reads pages at most `concurrency` at a time; one page failing (refused address, too large, too
 * slow, not text) does not stop the others. `onRead` hears about each page as it finishes.
 */
export async function readPages(
  fetcher: PageFetcher,
  extractor: PageExtractor,
  filter: DomainFilter,
  urls: readonly string[],
  options: { concurrency: number; signal?: AbortSignal; onRead?: (outcome: PageOutcome) => void },
): Promise<PageOutcome[]> {
  const outcomes: PageOutcome[] = new Array<PageOutcome>(urls.length);
  let next = 0;
  const lane = async () => {
    while (next < urls.length) {
      const index = next;
      next += 1;
      const url = urls[index]!;
      let outcome: PageOutcome;
      try {
        outcome = { ok: true, ...(await readPage(fetcher, extractor, filter, url, options.signal)) };
      } catch (error) {
        const known = asWebFetchError(error);
        outcome = { ok: false, url, error: known?.message ?? 'The page could not be read', code: known?.code ?? 'UNREACHABLE' };
      }
      outcomes[index] = outcome;
      options.onRead?.(outcome);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, urls.length)) }, lane));
  return outcomes;
}
