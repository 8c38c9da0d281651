import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { Agent } from 'undici';
import type { ProviderKind } from '../contracts/providers';
import { loadUndici } from '../platform/lazy-libraries';
import { assertOutboundAllowed } from '../platform/net/outbound';
import { abortError, isAbortError, ProviderError } from './provider';

/**
 * The hot path of a streamed answer: one POST through undici's `request` over a keep-alive
 * connection, the body read as text. The `openai` and `ollama` clients (fetch, web streams,
 * async generators per frame, an AbortController per request) cost more CPU per token than the
 * provider's own framing, and so does `node:http` (its parser calls into JavaScript and copies a
 * buffer once per chunked-encoding chunk, one per token of most providers: measured 1.1–1.3 ms
 * per 1,000 tokens against undici's 0.5–0.6). The clients stay in use for every other call.
 */

/** An upstream answer whose status and headers arrived. */
export interface StreamResponse {
  status: number;
  body: Readable;
}

/**
 * Keep-alive connections of one provider, reused across requests. No time limits: a local model
 * may think for minutes. Made at the provider's first request, when undici loads (not at start-up).
 */
export interface StreamAgent {
  dispatcher(): Promise<Agent>;
  close(): Promise<void>;
}

export function createStreamAgent(): StreamAgent {
  let agent: Promise<Agent> | undefined;
  return {
    dispatcher: () => (agent ??= loadUndici().then(({ Agent: Dispatcher }) => new Dispatcher({ headersTimeout: 0, bodyTimeout: 0, keepAliveTimeout: 10_000 }))),
    close: async () => {
      if (agent) await (await agent).close();
    },
  };
}

/**
 * POSTs `body` as JSON and resolves once the response headers arrived. Aborting `signal`
 * destroys the request (the provider sees the disconnect) and rejects, or makes the body
 * throw, with an AbortError. A connection failure rejects with the socket error.
 */
export async function postJson(url: URL, headers: Record<string, string>, body: unknown, agent: StreamAgent, signal?: AbortSignal): Promise<StreamResponse> {
  if (signal?.aborted) throw abortError();
  const [{ request }, dispatcher] = await Promise.all([loadUndici(), agent.dispatcher()]);
  try {
    const response = await request(url, {
      method: 'POST',
      dispatcher,
      headers: { 'content-type': 'application/json', accept: 'text/event-stream, application/x-ndjson, application/json', ...headers },
      body: JSON.stringify(body),
      ...(signal ? { signal } : {}),
    });
    return { status: response.statusCode, body: response.body };
  } catch (error) {
    if (signal?.aborted || isAbortError(error)) throw abortError();
    throw error;
  }
}

/** Reads a whole (error) body as text, at most 64 KiB. */
export async function readText(body: Readable): Promise<string> {
  const decoder = new StringDecoder('utf8');
  let text = '';
  for await (const part of body as AsyncIterable<Buffer | string>) {
    if (text.length < 65_536) text += typeof part === 'string' ? part : decoder.write(part);
  }
  return text + decoder.end();
}

/**
 * The body's complete lines, in batches: every line that one socket read completed (a read
 * usually holds several frames of a fast provider). Empty lines are kept (SSE frame ends). A
 * character split between two reads is decoded whole.
 */
export async function* lineBatches(body: Readable): AsyncGenerator<string[]> {
  // undici's body ignores setEncoding: its reads are bytes, and a character may be split between two.
  const decoder = new StringDecoder('utf8');
  let rest = '';
  for await (const part of body as AsyncIterable<Buffer | string>) {
    const text = rest + (typeof part === 'string' ? part : decoder.write(part));
    const lines = text.split('\n');
    rest = lines.pop() ?? '';
    if (lines.length > 0) yield lines;
  }
  rest += decoder.end();
  if (rest) yield [rest];
}

/** How a provider's stream turns the upstream body into batches of pieces, and how it words its errors. */
export interface UpstreamStream<T> {
  kind: ProviderKind;
  url: URL;
  headers: Record<string, string>;
  body: unknown;
  agent: StreamAgent;
  /** The message of a non-2xx answer, from its status and body text. */
  errorMessage(status: number, text: string): string;
  /** The pieces of the body, one batch per network read; throws ProviderErrors for errors in the stream. */
  read(body: Readable): AsyncIterable<T[]>;
}

/**
 * One streamed provider call, the part both providers share: connection failures and non-2xx
 * answers become ProviderErrors, an abort (at any point) an AbortError, any other failure while
 * reading a ProviderError with its message, and a consumer that stops early (break, throw)
 * does not leave the upstream request open.
 */
export async function* upstreamBatches<T>(stream: UpstreamStream<T>, signal?: AbortSignal): AsyncGenerator<T[]> {
  await assertOutboundAllowed('provider', stream.url);
  let response: StreamResponse;
  try {
    response = await postJson(stream.url, stream.headers, stream.body, stream.agent, signal);
  } catch (error) {
    if (signal?.aborted || isAbortError(error)) throw abortError();
    throw new ProviderError(stream.kind, `Could not reach the provider: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const { status, body } = response;
  if (status < 200 || status >= 300) {
    const text = await readText(body).catch(() => '');
    throw new ProviderError(stream.kind, stream.errorMessage(status, text), status);
  }
  let ended = false;
  try {
    yield* stream.read(body);
    ended = true;
  } catch (error) {
    if (signal?.aborted || isAbortError(error)) throw abortError();
    if (error instanceof ProviderError) throw error;
    throw new ProviderError(stream.kind, (error as Error).message || 'The provider failed');
  } finally {
    if (!ended) body.destroy();
  }
  if (signal?.aborted) throw abortError();
}
