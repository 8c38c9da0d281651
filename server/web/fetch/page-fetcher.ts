import type { Agent } from 'undici';
import { addressPolicy, type AddressPolicy } from './address-policy';
import { boundedRequest, type RequestLimits } from './bounded-request';
import { WebFetchError } from './fetch-errors';
import { createGuardedAgent, type OutboundGate } from './guarded-agent';
import type { Resolve } from './resolver';

/** A page as fetched: where it ended up, its media type and its bytes (decoded later, off the main thread). */
export interface FetchedPage {
  url: string;
  mediaType: string;
  charset?: string;
  body: Buffer;
}

/** Page fetch limits: 5 MB, 15 s, 5 redirects. */
export const PAGE_LIMITS: RequestLimits = { maxBytes: 5 * 1024 * 1024, timeoutMs: 15_000, maxRedirects: 5 };

/** Media types read as text (besides every text/*). PDF goes through the PDF extractor. */
const READABLE_TYPES = new Set([
  'application/xhtml+xml',
  'application/json',
  'application/ld+json',
  'application/xml',
  'application/rss+xml',
  'application/atom+xml',
  'application/pdf',
  '',
]);

/** True for a media type whose pages are read: text of any kind, JSON, XML, PDF (or none said). */
export function isReadableType(mediaType: string): boolean {
  return mediaType.startsWith('text/') || READABLE_TYPES.has(mediaType);
}

/** True when the start of a body holds NUL bytes: binary, whatever its type claims. */
function looksBinary(body: Buffer): boolean {
  return body.subarray(0, 1024).includes(0);
}

const ACCEPT = 'text/html,application/xhtml+xml,text/markdown;q=0.9,text/plain;q=0.9,application/json;q=0.8,application/pdf;q=0.7,*/*;q=0.1';
const USER_AGENT = 'Mozilla/5.0 (compatible; Parley web reader)';

export interface PageFetcherOptions {
  /** The admin's WEB_FETCH_ALLOWED_NETWORKS (CIDR list), read for every connection. */
  allowedNetworks: () => readonly string[];
  gate: OutboundGate;
  resolve?: Resolve;
  limits?: Partial<RequestLimits>;
}

/**
 * Reads web pages for web search and `fetch_url` without becoming a way into the LAN: every
 * connection (the first and each redirect's) resolves the host and connects only to a public
 * address, or one in WEB_FETCH_ALLOWED_NETWORKS; size, time and redirect limits hold; only
 * text-like content (HTML, text, Markdown, JSON, XML, PDF) is read.
 */
export function createPageFetcher(options: PageFetcherOptions) {
  const limits: RequestLimits = { ...PAGE_LIMITS, ...options.limits };
  let policyFor: { key: string; policy: AddressPolicy } | undefined;
  const policy = (): AddressPolicy => {
    const networks = options.allowedNetworks();
    const key = networks.join(',');
    if (policyFor?.key !== key) policyFor = { key, policy: addressPolicy(networks) };
    return policyFor.policy;
  };
  let agent: Promise<Agent> | undefined;
  const agentOf = () => (agent ??= createGuardedAgent({ purpose: 'web-page', gate: options.gate, policy, resolve: options.resolve }));
  return {
    /** Fetches one page; throws a {@link WebFetchError} saying why not. */
    async fetch(url: string, signal?: AbortSignal): Promise<FetchedPage> {
      const response = await boundedRequest(await agentOf(), url, { headers: { accept: ACCEPT, 'user-agent': USER_AGENT }, signal, acceptType: isReadableType }, limits);
      if (response.mediaType !== 'application/pdf' && looksBinary(response.body)) throw new WebFetchError('NOT_TEXT', 'Only text can be read (this page is binary)');
      return { url: response.url, mediaType: response.mediaType || 'text/plain', charset: response.charset, body: response.body };
    },
    /** Closes pooled connections. */
    async close(): Promise<void> {
      const open = agent;
      agent = undefined;
      await (await open)?.close();
    },
  };
}
export type PageFetcher = ReturnType<typeof createPageFetcher>;
