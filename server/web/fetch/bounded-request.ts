import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Agent } from 'undici';
import { loadUndici } from '../../platform/lazy-libraries';
import { asWebFetchError, WebFetchError } from './fetch-errors';

/** Limits every request of web search obeys. */
export interface RequestLimits {
  /** Largest body read (after decompression), in bytes. */
  maxBytes: number;
  /** The whole request, redirects and body included, in milliseconds. */
  timeoutMs: number;
  /** Redirects followed before giving up. */
  maxRedirects: number;
}

/** A request to send. */
export interface BoundedRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /** Checked on the final answer's media type (lower case, no parameters; '' when absent) before its body is read. */
  acceptType?: (mediaType: string) => boolean;
}

/** A response read whole within the limits. */
export interface BoundedResponse {
  /** Where the answer came from after redirects. */
  url: string;
  status: number;
  /** Lower-case media type without parameters ('' when the server sent none). */
  mediaType: string;
  /** The charset parameter of the content type, when sent. */
  charset?: string;
  body: Buffer;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Headers kept when a redirect leads to another origin (everything else may carry a key). */
const PORTABLE_HEADERS = new Set(['accept', 'accept-language', 'user-agent', 'content-type']);

/** An http(s) URL without credentials, or a BAD_URL error. */
export function webUrl(input: string | URL, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(input, base);
  } catch {
    throw new WebFetchError('BAD_URL', 'Not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new WebFetchError('BAD_URL', `Only http and https URLs can be read (not ${url.protocol})`);
  if (url.username || url.password) throw new WebFetchError('BAD_URL', 'URLs with a user name or password are not read');
  url.hash = '';
  return url;
}

/** The content type's media type and charset. */
function parseContentType(value: string | string[] | undefined): { mediaType: string; charset?: string } {
  const text = (Array.isArray(value) ? value[0] : value) ?? '';
  const [type = '', ...params] = text.split(';');
  const charset = params.map((p) => p.trim()).find((p) => p.toLowerCase().startsWith('charset='));
  return { mediaType: type.trim().toLowerCase(), charset: charset?.slice(8).replace(/"/g, '').trim() || undefined };
}

/** The body decoded as sent (gzip, deflate, br), or as it is. */
function decoded(body: Readable, encoding: string): Readable {
  const enc = encoding.trim().toLowerCase();
  if (enc === 'gzip' || enc === 'x-gzip') return body.pipe(createGunzip());
  if (enc === 'deflate') return body.pipe(createInflate());
  if (enc === 'br') return body.pipe(createBrotliDecompress());
  return body;
}

/** Closes a body not read to its end (undici reports that as an error nobody needs). */
function discard(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}

/** Reads at most `maxBytes` of a body (decoded), failing TOO_LARGE past it. */
async function readCapped(body: Readable, encoding: string, maxBytes: number): Promise<Buffer> {
  const stream = decoded(body, encoding);
  const parts: Buffer[] = [];
  let size = 0;
  try {
    for await (const part of stream as AsyncIterable<Buffer>) {
      size += part.length;
      if (size > maxBytes) throw new WebFetchError('TOO_LARGE', `The page is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
      parts.push(part);
    }
  } finally {
    if (stream !== body) stream.destroy();
    discard(body);
  }
  return Buffer.concat(parts, size);
}

/**
 * Sends one request through `agent` and reads the answer within `limits`: redirects are
 * followed by hand (each new location is checked again as a URL, and its connection by the
 * agent), the time limit covers everything, a body larger than the limit is refused (by its
 * Content-Length before reading, else while reading, decompressed), and `acceptType` refuses a
 * media type before any of the body is read. Errors are {@link WebFetchError}s.
 */
export async function boundedRequest(agent: Agent, target: string | URL, init: BoundedRequest, limits: RequestLimits): Promise<BoundedResponse> {
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  const signal = init.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
  let url = webUrl(target);
  let method = init.method ?? 'GET';
  let body = init.body;
  let headers = init.headers ?? {};
  try {
    for (let hop = 0; ; hop += 1) {
      const { request } = await loadUndici();
      const response = await request(url, {
        dispatcher: agent,
        method,
        headers: { 'accept-encoding': 'gzip, deflate, br', ...headers },
        body,
        signal,
        headersTimeout: limits.timeoutMs,
        bodyTimeout: limits.timeoutMs,
      });
      if (REDIRECTS.has(response.statusCode)) {
        discard(response.body);
        const location = response.headers.location;
        const next = Array.isArray(location) ? location[0] : location;
        if (!next) throw new WebFetchError('HTTP_STATUS', `The server answered ${response.statusCode} without a location`, response.statusCode);
        if (hop >= limits.maxRedirects) throw new WebFetchError('TOO_MANY_REDIRECTS', `More than ${limits.maxRedirects} redirects`);
        const from = url;
        url = webUrl(next, url);
        // Keys travel in headers: they never follow a redirect to another origin.
        if (url.origin !== from.origin) headers = Object.fromEntries(Object.entries(headers).filter(([name]) => PORTABLE_HEADERS.has(name.toLowerCase())));
        // 303 (and, as browsers do, 301/302 after a POST) continue as a GET without the body.
        if (response.statusCode === 303 || (method === 'POST' && response.statusCode !== 307 && response.statusCode !== 308)) {
          method = 'GET';
          body = undefined;
        }
        continue;
      }
      if (response.statusCode >= 400) {
        discard(response.body);
        throw new WebFetchError('HTTP_STATUS', `The server answered ${response.statusCode}`, response.statusCode);
      }
      const { mediaType, charset } = parseContentType(response.headers['content-type']);
      if (init.acceptType && !init.acceptType(mediaType)) {
        discard(response.body);
        throw new WebFetchError('NOT_TEXT', `Only text can be read (this is ${mediaType || 'an unknown type'})`);
      }
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > limits.maxBytes) {
        discard(response.body);
        throw new WebFetchError('TOO_LARGE', `The page is larger than ${Math.round(limits.maxBytes / 1024 / 1024)} MB`);
      }
      const encoding = response.headers['content-encoding'];
      const data = await readCapped(response.body, (Array.isArray(encoding) ? encoding[0] : encoding) ?? '', limits.maxBytes);
      return { url: url.href, status: response.statusCode, mediaType, charset, body: data };
    }
  } catch (error) {
    const known = asWebFetchError(error);
    if (known) throw known;
    if (deadline.aborted) throw new WebFetchError('TIMEOUT', `No complete answer within ${Math.round(limits.timeoutMs / 1000)} s`);
    if (init.signal?.aborted) throw new WebFetchError('ABORTED', 'Stopped');
    const code = (error as { code?: string }).code ?? '';
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') throw new WebFetchError('TIMEOUT', `No complete answer within ${Math.round(limits.timeoutMs / 1000)} s`);
    if (code === 'Z_DATA_ERROR' || code === 'ERR__ERROR_FORMAT_PADDING_1') throw new WebFetchError('UNREACHABLE', 'The answer could not be decompressed');
    throw new WebFetchError('UNREACHABLE', `${url.host} could not be reached`);
  }
}
