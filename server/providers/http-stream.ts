import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { abortError } from './provider';

/**
 * The hot path of a streamed answer, without a client library: one `node:http` POST over a
 * keep-alive connection and the body split into lines, one batch per socket read. The `openai`
 * and `ollama` clients (fetch, web streams, async generators per frame, an AbortController per
 * request) cost more CPU per token than the provider's own framing; they stay in use for every
 * other call.
 */

/** An upstream answer whose status and headers arrived. */
export interface StreamResponse {
  status: number;
  body: IncomingMessage;
}

/** Keep-alive agents, one pair per provider: connections are reused across requests. */
export function createStreamAgents(): { http: http.Agent; https: https.Agent } {
  return { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
}

/**
 * POSTs `body` as JSON and resolves once the response headers arrived. Aborting `signal`
 * destroys the request (the provider sees the disconnect) and rejects with an AbortError.
 * A connection failure rejects with the socket error.
 */
export function postJson(url: URL, headers: Record<string, string>, body: unknown, agents: ReturnType<typeof createStreamAgents>, signal?: AbortSignal): Promise<StreamResponse> {
  if (signal?.aborted) return Promise.reject(abortError());
  const payload = Buffer.from(JSON.stringify(body));
  const secure = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request(url, {
      method: 'POST',
      agent: secure ? agents.https : agents.http,
      headers: { 'content-type': 'application/json', accept: 'text/event-stream, application/x-ndjson, application/json', 'content-length': String(payload.length), ...headers },
    });
    const onAbort = () => {
      req.destroy(abortError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    req.once('response', (res) => {
      // The abort listener stays until the body is done: aborting mid-stream destroys the socket.
      res.once('close', () => signal?.removeEventListener('abort', onAbort));
      resolve({ status: res.statusCode ?? 0, body: res });
    });
    req.once('error', (error) => {
      signal?.removeEventListener('abort', onAbort);
      reject(signal?.aborted ? abortError() : error);
    });
    req.end(payload);
  });
}

/** Reads a whole (error) body as text, at most 64 KiB. */
export async function readText(body: IncomingMessage): Promise<string> {
  let text = '';
  for await (const part of body as AsyncIterable<Buffer>) {
    if (text.length < 65_536) text += part.toString('utf8');
  }
  return text;
}

/**
 * The body's complete lines, in batches: every line that one socket read completed (a read
 * usually holds several frames of a fast provider). Empty lines are kept (SSE frame ends).
 */
export async function* lineBatches(body: IncomingMessage): AsyncGenerator<string[]> {
  body.setEncoding('utf8');
  let rest = '';
  for await (const part of body as AsyncIterable<string>) {
    const text = rest + part;
    const lines = text.split('\n');
    rest = lines.pop() ?? '';
    if (lines.length > 0) yield lines;
  }
  if (rest) yield [rest];
}
