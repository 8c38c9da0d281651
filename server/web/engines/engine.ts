import type { WebConfig, WebSearchEngine, WebSearchKey, WebSearchResult } from '../../contracts/web';
import type { DomainFilter } from '../domain-filter';
import type { EngineHttp } from './engine-http';

/** What an engine is asked. */
export interface EngineQuery {
  query: string;
  /** Results wanted (WEB_SEARCH_RESULT_COUNT). */
  count: number;
  filter: DomainFilter;
  signal?: AbortSignal;
}

/** What an engine may use: HTTP, the settings, its key, and where its API lives. */
export interface EngineContext {
  http: EngineHttp;
  settings: WebConfig;
  key(name: WebSearchKey): string;
  /** The engine's API address: a test's loopback fake, else the public one. */
  endpoint(fallback: string): string;
  /** Parses DuckDuckGo's HTML answer off the main thread. */
  parseHtmlResults(html: string): Promise<WebSearchResult[]>;
}

/** One search engine: how to ask it and how to read its answer. */
export interface SearchEngine {
  id: WebSearchEngine;
  /** Keys it needs (shown on the settings page beside it). */
  keys: readonly WebSearchKey[];
  /** Why it cannot search with these settings (a missing URL or key), or null. */
  missing(settings: WebConfig, key: (name: WebSearchKey) => string): string | null;
  search(query: EngineQuery, context: EngineContext): Promise<WebSearchResult[]>;
}

/** A result from an engine's loosely typed fields; null without a usable link. */
export function result(link: unknown, title: unknown, snippet: unknown): WebSearchResult | null {
  if (typeof link !== 'string' || link === '') return null;
  return { link, title: typeof title === 'string' ? title : '', snippet: typeof snippet === 'string' ? snippet : '' };
}

/** The array at `path` of a JSON answer ([] when it is not there). */
export function arrayAt(value: unknown, ...path: string[]): Array<Record<string, unknown>> {
  let current: unknown = value;
  for (const key of path) current = current && typeof current === 'object' ? (current as Record<string, unknown>)[key] : undefined;
  return Array.isArray(current) ? current.filter((item): item is Record<string, unknown> => item !== null && typeof item === 'object') : [];
}

/** Results with the filtered-out domains removed, at most `count`. */
export function kept(results: Array<WebSearchResult | null>, query: EngineQuery): WebSearchResult[] {
  const out: WebSearchResult[] = [];
  for (const r of results) {
    if (!r) continue;
    let host: string;
    try {
      const url = new URL(r.link);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
      host = url.hostname;
    } catch {
      continue;
    }
    if (!query.filter.allows(host)) continue;
    out.push(r);
    if (out.length >= query.count) break;
  }
  return out;
}

/** A missing-key message. */
export const needsKey = (name: WebSearchKey, key: (name: WebSearchKey) => string): string | null => (key(name) ? null : `${name} is not set`);
