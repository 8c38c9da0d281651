import type { WebConfig, WebSearchEngine, WebSearchKey, WebSearchResult } from '../contracts/web';
import { badRequest, HttpError } from '../platform/http/errors';
import { domainFilter } from './domain-filter';
import { ENGINES, type EngineHttp } from './engines';
import { asWebFetchError } from './fetch/fetch-errors';

/** What searching needs. */
export interface WebSearchDeps {
  http: EngineHttp;
  key(name: WebSearchKey): Promise<string>;
  /** Engine API addresses to use instead of the public ones (tests' fakes). */
  endpoints?: Partial<Record<WebSearchEngine, string>>;
  parseHtmlResults(html: string): Promise<WebSearchResult[]>;
}

/**
 * An engine that failed: 400 naming the engine and the reason (Open WebUI answers web search
 * errors with 400); 403 `OFFLINE` with the guard's reason when Parley is offline.
 */
function engineFailed(engine: WebSearchEngine, error: unknown): HttpError {
  const known = asWebFetchError(error);
  if (known?.code === 'OFFLINE') return new HttpError(403, 'OFFLINE', known.message);
  const reason = known ? known.message : 'it could not be reached';
  return new HttpError(400, 'WEB_SEARCH_FAILED', `The web search engine (${engine}) failed: ${reason}`);
}

/**
 * Asks the configured engine every query (at the same time) and merges the answers: first
 * appearance wins, duplicates (same URL) are dropped, filtered domains never appear, at most
 * WEB_SEARCH_RESULT_COUNT results per query. Throws 400 when the engine lacks a setting or fails.
 */
export async function searchWeb(deps: WebSearchDeps, settings: WebConfig, queries: readonly string[], signal?: AbortSignal): Promise<WebSearchResult[]> {
  const engine = ENGINES[settings.WEB_SEARCH_ENGINE];
  const keys = new Map<WebSearchKey, string>();
  for (const name of engine.keys) keys.set(name, await deps.key(name));
  const key = (name: WebSearchKey) => keys.get(name) ?? '';
  const missing = engine.missing(settings, key);
  if (missing) throw badRequest(`Web search cannot run: ${missing} (Admin → Web search)`, 'WEB_SEARCH_NOT_CONFIGURED');
  const filter = domainFilter(settings.WEB_SEARCH_DOMAIN_FILTER_LIST);
  const context = {
    http: deps.http,
    settings,
    key,
    endpoint: (fallback: string) => deps.endpoints?.[engine.id] ?? fallback,
    parseHtmlResults: deps.parseHtmlResults,
  };
  const answers = await Promise.all(
    queries.map((query) =>
      engine.search({ query, count: settings.WEB_SEARCH_RESULT_COUNT, filter, signal }, context).catch((error: unknown) => {
        throw engineFailed(engine.id, error);
      }),
    ),
  );
  const seen = new Set<string>();
  const merged: WebSearchResult[] = [];
  for (const results of answers) {
    for (const r of results) {
      const id = r.link.replace(/#.*$/, '');
      if (seen.has(id)) continue;
      seen.add(id);
      merged.push(r);
    }
  }
  return merged;
}
