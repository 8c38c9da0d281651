import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { stat, statfs } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { offlineRefusal, outboundFetch } from '../platform/net/outbound';
import { splitCredentials } from './download-url';

/** A download failed for a reason worth showing; `retryable` ones are resumed (HTTP range). */
export class DownloadError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'DownloadError';
  }
}

/** Progress of one download: bytes on disk and the whole size (0 while unknown). */
export type DownloadProgress = (downloaded: number, size: number) => void;

export interface DownloadOptions {
  url: string;
  /** The partial file: appended to when the server honours a range, else rewritten. */
  file: string;
  signal: AbortSignal;
  onProgress: DownloadProgress;
  /** Keeps this many bytes free on the disk (default 256 MB). */
  reserveBytes?: number;
  /** The largest file taken (default {@link MAX_MODEL_BYTES}). */
  maxBytes?: number;
  fetchImpl?: typeof fetch;
}

/**
 * The largest model file a download may write (256 GiB, above any quantized model a desktop
 * runs): a server that streams without a length (chunked) is cut off there, and before that
 * when the disk's spare room would go.
 */
export const MAX_MODEL_BYTES = 256 * 1024 ** 3;

/** How often (in bytes) a download of unknown size checks the disk still has room. */
const SPACE_CHECK_BYTES = 64 * 1024 * 1024;

const mb = (n: number) => `${Math.ceil(n / 1024 / 1024)} MB`;

const sizeOf = async (file: string): Promise<number> => (await stat(file).catch(() => undefined))?.size ?? 0;

/** Free bytes on the disk holding `dir`. */
export async function freeBytes(dir: string): Promise<number> {
  const fs = await statfs(dir);
  return Number(fs.bavail) * Number(fs.bsize);
}

/** Bytes a disk needs to have free for `needed` more bytes, or a DownloadError saying what is missing. */
export async function ensureSpace(dir: string, needed: number, reserve = 256 * 1024 * 1024): Promise<void> {
  const free = await freeBytes(dir);
  if (needed + reserve > free) {
    throw new DownloadError(`Not enough disk space: the model needs ${mb(needed)} more and ${mb(free)} are free (keeping ${mb(reserve)} spare)`, false);
  }
}

/**
 * One pass of a resumable download: asks for the bytes after those already in `file`
 * (`Range: bytes=N-`), appends them (or starts over when the server ignores the range), checks
 * the disk has room first, and reports progress. Resolves with the final size when complete;
 * a cut connection rejects with a retryable DownloadError, leaving the partial file in place.
 */
export async function downloadOnce(options: DownloadOptions): Promise<number> {
  const doFetch = options.fetchImpl ?? outboundFetch('model-download');
  const have = await sizeOf(options.file);
  const maxBytes = options.maxBytes ?? MAX_MODEL_BYTES;
  // fetch refuses a URL holding `user:pass@` (and its error repeats the URL): they go as a header.
  const { url, authorization } = splitCredentials(options.url);
  let response: Response;
  try {
    response = await doFetch(url, { signal: options.signal, redirect: 'follow', headers: { ...(have > 0 ? { Range: `bytes=${have}-` } : {}), ...(authorization ? { Authorization: authorization } : {}) } });
  } catch (error) {
    if (options.signal.aborted) throw error;
    // Offline: not a failure to retry later, a refusal to say.
    const refused = offlineRefusal(error);
    if (refused) throw new DownloadError(refused.message, false);
    throw new DownloadError(`Could not reach ${new URL(url).host}: ${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message}`, true);
  }
  if (response.status === 416 && have > 0) {
    // Nothing after what we have: the file is already complete.
    await response.body?.cancel();
    return have;
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new DownloadError(`The server answered ${response.status} ${response.statusText}`.trim(), response.status >= 500 || response.status === 429);
  }
  const resumed = response.status === 206 && have > 0;
  const start = resumed ? have : 0;
  const length = Number(response.headers.get('content-length') ?? NaN);
  const rangeTotal = Number(/\/(\d+)$/.exec(response.headers.get('content-range') ?? '')?.[1] ?? NaN);
  const total = Number.isFinite(rangeTotal) ? rangeTotal : Number.isFinite(length) ? start + length : 0;
  if (total > maxBytes) {
    await response.body.cancel();
    throw new DownloadError(`The file is ${mb(total)}, more than the ${mb(maxBytes)} a model may have`, false);
  }
  if (total > 0) await ensureSpace(path.dirname(options.file), total - start, options.reserveBytes);

  let received = start;
  let lastReport = 0;
  options.onProgress(received, total);
  let nextSpaceCheck = received + SPACE_CHECK_BYTES;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      // Without a length the server could send forever: stop at the cap, and before the disk fills.
      if (received > maxBytes) {
        callback(new DownloadError(`The server sent more than the ${mb(maxBytes)} a model may have`, false));
        return;
      }
      if (total === 0 && received >= nextSpaceCheck) {
        nextSpaceCheck = received + SPACE_CHECK_BYTES;
        ensureSpace(path.dirname(options.file), SPACE_CHECK_BYTES, options.reserveBytes).then(
          () => callback(null, chunk),
          (error: unknown) => callback(error as Error),
        );
        return;
      }
      const now = Date.now();
      if (now - lastReport >= 250) {
        lastReport = now;
        options.onProgress(received, total);
      }
      callback(null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), counter, createWriteStream(options.file, { flags: resumed ? 'a' : 'w', mode: 0o600 }), { signal: options.signal });
  } catch (error) {
    if (options.signal.aborted) throw error;
    if (error instanceof DownloadError) throw error;
    options.onProgress(received, total);
    throw new DownloadError(`The connection broke after ${received} bytes: ${(error as Error).message}`, true);
  }
  options.onProgress(received, total);
  if (total > 0 && received < total) throw new DownloadError(`The connection ended after ${received} of ${total} bytes`, true);
  return received;
}

/** The SHA-256 of a file, hex, read as a stream. */
export async function sha256Of(file: string, signal?: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash, { signal });
  return hash.digest('hex');
}

/** Waits `ms`, or less when `signal` aborts (a download's back-off). */
export const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
