import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tinyGguf } from '../../test/fixtures/tiny-gguf';
import { HttpError } from '../platform/http/errors';
import type { BuiltinModelRow, BuiltinRepo } from './builtin.repo';
import { createModelLibrary, type ModelLibraryDeps } from './model-library';

/** The library's table in memory. */
function memoryRepo(): BuiltinRepo {
  const rows = new Map<string, BuiltinModelRow>();
  return {
    list: async () => [...rows.values()].map((r) => ({ ...r })),
    find: async (id: string) => (rows.has(id) ? { ...rows.get(id)! } : undefined),
    insert: async (row: BuiltinModelRow) => void rows.set(row.id, { ...row }),
    update: async (id: string, patch: Partial<BuiltinModelRow>) => {
      const row = rows.get(id);
      if (row) rows.set(id, { ...row, ...patch });
    },
    remove: async (id: string) => void rows.delete(id),
  };
}

const bytes = tinyGguf();
const clock = { now: () => Math.floor(Date.now() / 1000), nowMs: () => Date.now() };
const caller = { id: 'admin' };

/** A response streaming `body` in pieces, without Content-Length (chunked) unless `length`. */
function streamed(body: Buffer, options: { length?: boolean; pieces?: number } = {}): Response {
  const pieces = options.pieces ?? 4;
  const step = Math.ceil(body.length / pieces);
  let at = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= body.length) return controller.close();
      controller.enqueue(new Uint8Array(body.subarray(at, at + step)));
      at += step;
    },
  });
  return new Response(stream, { status: 200, headers: options.length ? { 'content-length': String(body.length) } : {} });
}

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('model library downloads', () => {
  let dir: string;
  let logLines: string[];
  const make = (overrides: Partial<ModelLibraryDeps>) => {
    logLines = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) });
    return createModelLibrary({ repo: memoryRepo(), dir, probe: async () => undefined, unload: () => undefined, clock, log, retries: 0, retryBackoffMs: 1, ...overrides });
  };

  beforeEach(() => {
    dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'parley-library-')), 'models');
  });
  afterEach(() => {
    rmSync(path.dirname(dir), { recursive: true, force: true });
  });

  it('cuts off a download without a length at the size limit, keeping no partial file', async () => {
    const library = make({ fetchImpl: async () => streamed(Buffer.concat([bytes, bytes, bytes]), { pieces: 12 }), maxDownloadBytes: bytes.length });
    await library.init();
    const started = await library.download({ url: 'https://models.example/endless.gguf', caller });
    await until(async () => (await library.get(started.id, true)).status !== 'downloading');
    const entry = await library.get(started.id, true);
    expect(entry.status).toBe('failed');
    expect(entry.error).toMatch(/more than the .* a model may have/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a declared size over the limit before writing anything', async () => {
    const library = make({ fetchImpl: async () => streamed(bytes, { length: true }), maxDownloadBytes: 1000 });
    await library.init();
    const started = await library.download({ url: 'https://models.example/big.gguf', caller });
    await until(async () => (await library.get(started.id, true)).status !== 'downloading');
    expect((await library.get(started.id, true)).error).toMatch(/more than the/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('leaves no file behind when a download is cancelled while its file is being probed', async () => {
    let probing!: () => void;
    const probeStarted = new Promise<void>((resolve) => (probing = resolve));
    let finishProbe!: () => void;
    const probe = async () => {
      probing();
      await new Promise<void>((resolve) => (finishProbe = resolve));
    };
    const library = make({ fetchImpl: async () => streamed(bytes, { length: true }), probe });
    await library.init();
    const started = await library.download({ url: 'https://models.example/tiny.gguf', caller });
    await probeStarted;
    const cancelled = library.cancel(started.id);
    await new Promise((r) => setTimeout(r, 20));
    finishProbe();
    await cancelled;
    expect(await library.list(true)).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it.runIf(process.platform !== 'win32')('keeps model files 0600 in a 0700 folder', async () => {
    const library = make({ fetchImpl: async () => streamed(bytes, { length: true }) });
    await library.init();
    const started = await library.download({ url: 'https://models.example/tiny.gguf', caller });
    await until(async () => (await library.get(started.id, true)).status === 'ready');
    const entry = await library.get(started.id, true);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(dir, entry.file_name)).mode & 0o777).toBe(0o600);
  });

  it('sends user:pass@ as a Basic header, and shows and logs the URL without secrets except to admins', async () => {
    const asked: Array<{ url: string; authorization: string | null }> = [];
    const fetchImpl = async (input: string | URL | Request, init?: RequestInit) => {
      asked.push({ url: String(input), authorization: new Headers(init?.headers).get('authorization') });
      // As undici words a failure: the URL, token and all, inside the message.
      throw new TypeError(`fetch failed for ${String(input)}`);
    };
    const library = make({ fetchImpl: fetchImpl as typeof fetch });
    await library.init();
    const url = 'https://hf-user:s3cret-pass@models.example/private/tiny.gguf?token=hf_TOPSECRET&download=true';
    const started = await library.download({ url, caller });
    await until(async () => (await library.get(started.id, true)).status !== 'downloading');
    expect(asked[0]).toEqual({ url: 'https://models.example/private/tiny.gguf?token=hf_TOPSECRET&download=true', authorization: `Basic ${Buffer.from('hf-user:s3cret-pass').toString('base64')}` });
    expect((await library.get(started.id, true)).source_url).toBe(url);
    const shown = await library.get(started.id, false);
    expect(shown.source_url).toBe('https://models.example/private/tiny.gguf?token=…&download=…');
    expect(shown.error).toMatch(/Could not reach models\.example/);
    const everyone = JSON.stringify(await library.list(false));
    for (const secret of ['s3cret-pass', 'hf-user', 'hf_TOPSECRET']) {
      expect(everyone).not.toContain(secret);
      expect(logLines.join('\n')).not.toContain(secret);
    }
  });

  it('answers a malformed percent-escape in the URL with 400', async () => {
    const library = make({});
    await library.init();
    const refused = await library.download({ url: 'https://models.example/bad%E0%A4%A.gguf', caller }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).status).toBe(400);
    expect((refused as HttpError).message).toMatch(/url/);
    expect(await library.list(true)).toEqual([]);
  });
});
