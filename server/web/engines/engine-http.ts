import type { Agent } from 'undici';
import { boundedRequest, type RequestLimits } from '../fetch/bounded-request';
import { WebFetchError } from '../fetch/fetch-errors';
import { createGuardedAgent, type OutboundGate } from '../fetch/guarded-agent';

/** Engine answers: 2 MB, 15 s, 3 redirects. */
export const ENGINE_LIMITS: RequestLimits = { maxBytes: 2 * 1024 * 1024, timeoutMs: 15_000, maxRedirects: 3 };

/** One call to a search engine's API. */
export interface EngineRequest {
  method?: 'GET' | 'POST';
  url: string | URL;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as an HTML form. */
  form?: Record<string, string>;
  signal?: AbortSignal;
}

/** How engines talk to their APIs. */
export interface EngineHttp {
  /** The answer parsed as JSON. */
  json(request: EngineRequest): Promise<unknown>;
  /** The answer as text (DuckDuckGo's HTML). */
  text(request: EngineRequest): Promise<string>;
  close(): Promise<void>;
}

const USER_AGENT = 'Parley web search';

/**
 * HTTP for search engine APIs: the engine's address is the admin's choice (or the engine's
 * public API), so no address check; every connection still asks the outbound gate, and answers
 * obey {@link ENGINE_LIMITS}. Error messages never carry the URL (some engines take the key in
 * the query string).
 */
export function createEngineHttp(options: { gate: OutboundGate; limits?: Partial<RequestLimits> }): EngineHttp {
  const limits = { ...ENGINE_LIMITS, ...options.limits };
  let agent: Promise<Agent> | undefined;
  const send = async (request: EngineRequest, accept: string): Promise<Buffer> => {
    agent ??= createGuardedAgent({ purpose: 'web-engine', gate: options.gate });
    const headers: Record<string, string> = { accept, 'user-agent': USER_AGENT, ...request.headers };
    let body: string | undefined;
    if (request.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.json);
    } else if (request.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(request.form).toString();
    }
    const response = await boundedRequest(await agent, request.url, { method: request.method ?? (body === undefined ? 'GET' : 'POST'), headers, body, signal: request.signal }, limits);
    return response.body;
  };
  return {
    async json(request) {
      const data = await send(request, 'application/json');
      try {
        return JSON.parse(data.toString('utf8')) as unknown;
      } catch {
        throw new WebFetchError('HTTP_STATUS', 'The search engine did not answer JSON');
      }
    },
    async text(request) {
      return (await send(request, 'text/html,*/*;q=0.5')).toString('utf8');
    },
    async close() {
      const open = agent;
      agent = undefined;
      await (await open)?.close();
    },
  };
}
