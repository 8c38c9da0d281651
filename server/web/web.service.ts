import type { Role } from '../contracts/auth';
import type { WebConfig, WebSearchEngine, WebSearchResult } from '../contracts/web';
import type { Logger } from '../platform/log';
import { forbidden } from '../platform/http/errors';
import type { PermissionsService } from '../permissions';
import { domainFilter } from './domain-filter';
import { createEngineHttp } from './engines';
import { createPageExtractor } from './extract/extract-client';
import type { PageText } from './extract/page-extract';
import { createPageFetcher } from './fetch/page-fetcher';
import type { OutboundGate } from './fetch/guarded-agent';
import type { Resolve } from './fetch/resolver';
import { readPage, readPages, type PageOutcome } from './page-reader';
import { searchWeb } from './web-search';
import type { WebSettings } from './web-settings';

/** Who asks. */
export interface WebCaller {
  id: string;
  role: Role;
}

export interface WebServiceDeps {
  settings: WebSettings;
  permissions: Pick<PermissionsService, 'allows'>;
  /** Asked before every connection (the offline switch). */
  gate: OutboundGate;
  log: Logger;
  /** Host name resolution for page fetches (tests pass a table). */
  resolve?: Resolve;
  /** Engine API addresses instead of the public ones (tests' fakes). */
  endpoints?: Partial<Record<WebSearchEngine, string>>;
  /** Page fetch time limit in milliseconds (tests shorten it). */
  pageTimeoutMs?: number;
}

/**
 * Web search: asking the configured engine, reading pages safely (public addresses only unless
 * allowed, limits, text only, extraction on a worker), and who may do it. Nothing connects
 * anywhere while web search is off.
 */
export function createWebService(deps: WebServiceDeps) {
  const { settings } = deps;
  // The settings in force for the current connection checks (read before every search or read).
  let current: WebConfig | undefined;
  const http = createEngineHttp({ gate: deps.gate });
  const fetcher = createPageFetcher({
    allowedNetworks: () => current?.WEB_FETCH_ALLOWED_NETWORKS ?? [],
    gate: deps.gate,
    resolve: deps.resolve,
    limits: deps.pageTimeoutMs ? { timeoutMs: deps.pageTimeoutMs } : undefined,
  });
  const extractor = createPageExtractor(deps.log);

  /** The settings, refusing when web search is off. */
  async function active(): Promise<WebConfig> {
    const cfg = await settings.get();
    if (!cfg.ENABLE_WEB_SEARCH) throw forbidden('Web search is turned off (an admin can turn it on in Admin → Web search)', 'WEB_SEARCH_DISABLED');
    current = cfg;
    return cfg;
  }

  const service = {
    settings,

    /** True when an admin turned web search on. */
    async enabled(): Promise<boolean> {
      return (await settings.get()).ENABLE_WEB_SEARCH;
    },

    /** The settings in force; 403 when web search is off. */
    requireEnabled: active,

    /** The settings in force; 403 when web search is off or the caller lacks `features.web_search`. */
    async requireAccess(caller: WebCaller): Promise<WebConfig> {
      const cfg = await active();
      if (!(await deps.permissions.allows(caller, 'features.web_search'))) throw forbidden('You do not have permission to use web search', 'WEB_SEARCH_FORBIDDEN');
      return cfg;
    },

    /** Results for the queries (merged, deduplicated, filtered). 403 when off; 400 when the engine fails. */
    async search(queries: readonly string[], signal?: AbortSignal): Promise<WebSearchResult[]> {
      const cfg = await active();
      return searchWeb({ http, key: settings.key, endpoints: deps.endpoints, parseHtmlResults: (html) => extractor.duckduckgo(html) }, cfg, queries, signal);
    },

    /** Reads pages, WEB_SEARCH_CONCURRENT_REQUESTS at a time; each one read or failed with its reason. */
    async read(urls: readonly string[], options: { signal?: AbortSignal; onRead?: (outcome: PageOutcome) => void } = {}): Promise<PageOutcome[]> {
      const cfg = await active();
      return readPages(fetcher, extractor, domainFilter(cfg.WEB_SEARCH_DOMAIN_FILTER_LIST), urls, { concurrency: cfg.WEB_SEARCH_CONCURRENT_REQUESTS, ...options });
    },

    /** Reads one page; throws a WebFetchError saying why it could not. */
    async readOne(url: string, signal?: AbortSignal): Promise<PageText> {
      const cfg = await active();
      return readPage(fetcher, extractor, domainFilter(cfg.WEB_SEARCH_DOMAIN_FILTER_LIST), url, signal);
    },

    /** Closes pooled connections and the reading worker. */
    async close(): Promise<void> {
      await Promise.all([http.close(), fetcher.close(), extractor.stop()]);
    },
  };
  return service;
}
export type WebService = ReturnType<typeof createWebService>;
