import { createWriteStream } from 'node:fs';
import { copyFile, link, rename, rm, stat } from 'node:fs/promises';
import { assertOutboundAllowed } from '../platform/net/outbound';
import { ensurePrivateDir, restrictFiles } from '../platform/private-files';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BuiltinModel, BuiltinModelKind, RecommendedModel } from '../contracts/builtin';
import type { Clock } from '../platform/clock';
import { badRequest, conflict, notFound } from '../platform/http/errors';
import { randomToken } from '../platform/ids';
import type { Logger } from '../platform/log';
import type { BuiltinModelRow, BuiltinRepo } from './builtin.repo';
import { presentBuiltinModel } from './builtin.present';
import { GgufError } from './gguf-info';
import { WhisperFileError } from './whisper-file';
import { inspectModelFile } from './model-inspect';
import { DownloadError, downloadOnce, ensureSpace, sha256Of, sleep } from './model-download';
import { RECOMMENDED_MODELS } from './recommended-models';
import type { RuntimeModel } from './runtime/protocol';
import { MODEL_FILE, fileNameOfUrl, freeFileName, slug } from './model-file-names';
import { redactUrlsIn } from './download-url';

export interface ModelLibraryDeps {
  repo: BuiltinRepo;
  /** Where model files live (`<data dir>/models`). */
  dir: string;
  /** Loads a file in a throw-away runtime process; rejects with the reason it cannot run. */
  probe: (file: string) => Promise<void>;
  /** Unloads a model from the runtime (before its file goes). */
  unload: (id: string) => void;
  /** Transcription models (whisper.cpp files): loaded once on the speech engine before they are listed, and unloaded before their file goes. */
  speech?: { probe: (file: string) => Promise<void>; unload: (file: string) => Promise<void> };
  clock: Clock;
  log: Logger;
  /** Automatic resumes of a broken download before it is left paused (default 3), and the first back-off in ms (default 1000). */
  retries?: number;
  retryBackoffMs?: number;
  fetchImpl?: typeof fetch;
  /** The largest file a download may write (default MAX_MODEL_BYTES). */
  maxDownloadBytes?: number;
  /** Files recognised by their SHA-256 when imported (default: the recommended list's pinned files). */
  pinned?: ReadonlyArray<Pick<RecommendedModel, 'name' | 'kind' | 'sha256'>>;
}

/** Who adds a model. */
export interface LibraryCaller {
  id: string;
}

/**
 * The built-in model library: GGUF files in the data dir with the facts their headers give.
 * Files arrive by upload, from a path on the server, or by a resumable download; every file is
 * header-checked and then loaded once in a throw-away runtime process before it is listed as
 * ready, so a file llama.cpp cannot run is refused with the reason instead of failing chats.
 */
export function createModelLibrary(deps: ModelLibraryDeps) {
  const { repo, dir, clock, log } = deps;
  const downloads = new Map<string, { controller: AbortController; pausing: boolean; done: Promise<void> }>();
  const retries = deps.retries ?? 3;
  const backoff = deps.retryBackoffMs ?? 1000;
  const filePath = (row: Pick<BuiltinModelRow, 'file_name'>) => path.join(dir, row.file_name);
  const partPath = (id: string) => path.join(dir, `${id}.part`);
  const listeners: Array<() => void> = [];
  const changed = () => listeners.forEach((listener) => listener());

  async function uniqueId(base: string): Promise<string> {
    const root = slug(base);
    for (let n = 1; ; n += 1) {
      const id = n === 1 ? root : `${root}-${n}`;
      if (!(await repo.find(id))) return id;
    }
  }

  const uniqueFileName = (base: string) => freeFileName(dir, base);
  const inspect = (file: string, size: number) => inspectModelFile(file, size, deps);

  /** Reads the header, probes the file, and moves it into the library as a ready entry. */
  async function admit(temp: string, input: { fileName: string; name?: string; kind?: BuiltinModelKind; caller: LibraryCaller }): Promise<BuiltinModel> {
    try {
      const size = (await stat(temp)).size;
      const info = await inspect(temp, size);
      const sha256 = await sha256Of(temp); // a pinned file carried in on a USB stick is recognised by it
      const pinned = (deps.pinned ?? RECOMMENDED_MODELS).find((m) => m.sha256 === sha256);
      const fileName = await uniqueFileName(input.fileName);
      await rename(temp, path.join(dir, fileName));
      const now = clock.now();
      const row: BuiltinModelRow = {
        id: await uniqueId(input.name ?? pinned?.name ?? input.fileName),
        name: input.name ?? pinned?.name ?? info.name ?? input.fileName.replace(MODEL_FILE, ''),
        file_name: fileName,
        status: 'ready',
        // A whisper file is a transcription model whatever the caller said.
        kind: info.kind === 'transcription' ? 'transcription' : (input.kind ?? pinned?.kind ?? info.kind),
        size,
        downloaded: size,
        architecture: info.architecture,
        context_length: info.context_length,
        quantization: info.quantization,
        ram_estimate: info.ram_estimate,
        source_url: null,
        sha256,
        error: null,
        created_by: input.caller.id,
        created_at: now,
        updated_at: now,
      };
      await repo.insert(row);
      changed();
      log.info({ id: row.id, architecture: row.architecture, size }, 'built-in model imported');
      return presentBuiltinModel(row);
    } catch (error) {
      await rm(temp, { force: true });
      if (error instanceof GgufError) throw badRequest(`The file is not a usable GGUF model: ${error.message}`, 'BAD_GGUF');
      if (error instanceof WhisperFileError) throw badRequest(`The file is not a usable whisper model: ${error.message}`, 'BAD_WHISPER_MODEL');
      if ((error as { code?: string }).code === 'crashed' || (error as { code?: string }).code === 'load') {
        throw badRequest(`The file is not a loadable GGUF model: ${(error as Error).message}`, 'BAD_GGUF');
      }
      throw error;
    }
  }

  /** Completes a finished download: checksum, header, probe; the entry becomes ready or failed. */
  async function finishDownload(row: BuiltinModelRow, signal: AbortSignal): Promise<void> {
    const part = partPath(row.id);
    if (row.sha256) {
      const actual = await sha256Of(part, signal);
      if (actual !== row.sha256) throw new DownloadError(`The SHA-256 does not match: expected ${row.sha256}, got ${actual}`, false);
    }
    const size = (await stat(part)).size;
    let info;
    try {
      info = await inspect(part, size);
    } catch (error) {
      if (signal.aborted) throw error;
      throw new DownloadError(`The downloaded file is not a loadable model: ${(error as Error).message}`, false);
    }
    // Cancelled while the file was being probed: it must not land in the library as an orphan.
    signal.throwIfAborted();
    const fileName = await uniqueFileName(row.file_name);
    await rename(part, path.join(dir, fileName));
    restrictFiles(path.join(dir, fileName));
    await repo.update(row.id, {
      status: 'ready',
      file_name: fileName,
      size,
      downloaded: size,
      architecture: info.architecture,
      context_length: info.context_length,
      quantization: info.quantization,
      ram_estimate: info.ram_estimate,
      kind: info.kind === 'transcription' ? 'transcription' : row.kind === 'chat' && info.kind !== 'chat' ? info.kind : row.kind,
      name: row.name,
      error: null,
      updated_at: clock.now(),
    });
    changed();
    log.info({ id: row.id, size }, 'built-in model downloaded');
  }

  /** Runs (or resumes) a download in the background, retrying cut connections from where they broke. */
  function runDownload(row: BuiltinModelRow): void {
    const controller = new AbortController();
    const state = { controller, pausing: false, done: Promise.resolve() };
    const { signal } = controller;
    // Progress is written at most twice a second, the latest value always landing.
    let lastWrite = 0;
    let latest = { downloaded: 0, size: 0 };
    let trailing: NodeJS.Timeout | undefined;
    const write = () => {
      trailing = undefined;
      lastWrite = Date.now();
      void repo.update(row.id, { ...latest, updated_at: clock.now() }).catch(() => undefined);
    };
    const progress = (downloaded: number, size: number) => {
      latest = { downloaded, size };
      const wait = 500 - (Date.now() - lastWrite);
      if (wait <= 0) write();
      else trailing ??= setTimeout(write, wait);
    };
    signal.addEventListener('abort', () => clearTimeout(trailing));
    state.done = (async () => {
      await repo.update(row.id, { status: 'downloading', error: null, updated_at: clock.now() });
      for (let attempt = 0; ; attempt += 1) {
        try {
          const size = await downloadOnce({ url: row.source_url!, file: partPath(row.id), signal, onProgress: progress, fetchImpl: deps.fetchImpl, maxBytes: deps.maxDownloadBytes });
          clearTimeout(trailing);
          await repo.update(row.id, { downloaded: size, size, updated_at: clock.now() });
          await finishDownload((await repo.find(row.id)) ?? row, signal);
          return;
        } catch (error) {
          if (signal.aborted) {
            const onDisk = (await stat(partPath(row.id)).catch(() => undefined))?.size ?? 0;
            if (state.pausing) await repo.update(row.id, { status: 'paused', downloaded: onDisk, updated_at: clock.now() });
            return;
          }
          const retryable = error instanceof DownloadError && error.retryable;
          // Shown to every user and logged: a token or password in the URL is not repeated.
          const message = redactUrlsIn(error instanceof Error ? error.message : String(error));
          if (retryable && attempt < retries) {
            log.info({ id: row.id, reason: message }, 'model download interrupted: resuming');
            await sleep(backoff * 2 ** attempt, signal);
            continue;
          }
          // A broken connection can be resumed later; a wrong file cannot.
          if (!retryable) await rm(partPath(row.id), { force: true });
          await repo.update(row.id, { status: retryable ? 'paused' : 'failed', error: message, updated_at: clock.now() });
          log.warn({ id: row.id, reason: message }, 'model download stopped');
          return;
        }
      }
    })()
      .catch((error: unknown) => log.warn({ err: error, id: row.id }, 'model download failed unexpectedly'))
      .finally(() => {
        if (downloads.get(row.id) === state) downloads.delete(row.id);
      });
    downloads.set(row.id, state);
  }

  async function mustFind(id: string): Promise<BuiltinModelRow> {
    const row = await repo.find(id);
    if (!row) throw notFound(`No built-in model '${id}'`, 'BUILTIN_MODEL_NOT_FOUND');
    return row;
  }

  async function stopDownload(id: string, pausing: boolean): Promise<void> {
    const running = downloads.get(id);
    if (!running) return;
    running.pausing = pausing;
    running.controller.abort();
    await running.done;
  }

  return {
    /** Creates the folder and marks downloads cut off by a restart as paused. */
    async init(): Promise<void> {
      ensurePrivateDir(dir);
      for (const row of await repo.list()) {
        if (row.status === 'downloading') await repo.update(row.id, { status: 'paused', error: 'Interrupted by a restart', updated_at: clock.now() });
      }
    },

    /** Every entry; `full` (admins) shows download URLs as given, others see them redacted. */
    async list(full: boolean): Promise<BuiltinModel[]> {
      return (await repo.list()).map((row) => presentBuiltinModel(row, full));
    },

    async get(id: string, full: boolean): Promise<BuiltinModel> {
      return presentBuiltinModel(await mustFind(id), full);
    },

    /** Ready models of a kind, as the runtime needs them. */
    async ready(kind?: BuiltinModelKind): Promise<Array<BuiltinModel & { runtime: RuntimeModel }>> {
      return (await repo.list())
        .filter((row) => row.status === 'ready' && (!kind || row.kind === kind))
        .map((row) => ({ ...presentBuiltinModel(row), runtime: { id: row.id, path: filePath(row), ramEstimate: row.ram_estimate ?? row.size } }));
    },

    /** The llama runtime's view of one ready chat or embedding model, if there is one with that id. */
    async runtimeModel(id: string): Promise<RuntimeModel | undefined> {
      const row = await repo.find(id);
      if (!row || row.status !== 'ready' || row.kind === 'transcription') return undefined;
      return { id: row.id, path: filePath(row), ramEstimate: row.ram_estimate ?? row.size };
    },

    /** Imports an uploaded file (streamed to disk, then checked). */
    async importStream(stream: Readable, input: { fileName: string; name?: string; kind?: BuiltinModelKind; caller: LibraryCaller }): Promise<BuiltinModel> {
      if (!MODEL_FILE.test(input.fileName)) {
        stream.resume();
        throw badRequest(`Only .gguf models and whisper .bin models can be imported (got '${input.fileName}')`, 'BAD_GGUF');
      }
      const temp = path.join(dir, `upload-${randomToken(8)}.part`);
      try {
        await pipeline(stream, createWriteStream(temp, { mode: 0o600 }));
      } catch (error) {
        await rm(temp, { force: true });
        throw badRequest(`The upload broke off: ${(error as Error).message}`, 'REQUEST_ABORTED');
      }
      return admit(temp, input);
    },

    /** Imports a file already on the server's disk (linked when possible, else copied). */
    async importPath(source: string, input: { name?: string; kind?: BuiltinModelKind; caller: LibraryCaller }): Promise<BuiltinModel> {
      if (!path.isAbsolute(source)) throw badRequest("Field 'path': must be an absolute path on the server", 'BAD_PATH');
      if (!MODEL_FILE.test(source)) throw badRequest("Field 'path': must name a .gguf or whisper .bin file", 'BAD_GGUF');
      const info = await stat(source).catch(() => undefined);
      if (!info?.isFile()) throw badRequest(`Field 'path': no file at ${source}`, 'BAD_PATH');
      const temp = path.join(dir, `import-${randomToken(8)}.part`);
      try {
        await link(source, temp);
      } catch {
        await ensureSpace(dir, info.size).catch((error: Error) => {
          throw badRequest(error.message, 'NO_DISK_SPACE');
        });
        await copyFile(source, temp);
        restrictFiles(temp); // a linked file keeps its owner's mode; the 0700 folder keeps others out
      }
      return admit(temp, { ...input, fileName: path.basename(source) });
    },

    /** Starts a download; progress shows in the entry. */
    async download(input: { url: string; sha256?: string; name?: string; kind?: BuiltinModelKind; caller: LibraryCaller }): Promise<BuiltinModel> {
      await assertOutboundAllowed('model-download', input.url); // offline: 403 at once, no entry left
      let fileName: string;
      try {
        fileName = fileNameOfUrl(input.url);
      } catch {
        throw badRequest("Field 'url': its path holds a malformed percent-escape", 'BAD_URL');
      }
      const now = clock.now();
      const row: BuiltinModelRow = {
        id: await uniqueId(input.name ?? fileName),
        name: input.name ?? fileName.replace(MODEL_FILE, ''),
        file_name: fileName,
        status: 'downloading',
        kind: input.kind ?? 'chat',
        size: 0,
        downloaded: 0,
        architecture: null,
        context_length: null,
        quantization: null,
        ram_estimate: null,
        source_url: input.url,
        sha256: input.sha256 ?? null,
        error: null,
        created_by: input.caller.id,
        created_at: now,
        updated_at: now,
      };
      await repo.insert(row);
      runDownload(row);
      return presentBuiltinModel(row);
    },

    /** Pauses a running download (the partial file stays, to resume with a range request). */
    async pause(id: string): Promise<BuiltinModel> {
      const row = await mustFind(id);
      if (row.status !== 'downloading') throw conflict(`'${id}' is not downloading`, 'NOT_DOWNLOADING');
      await stopDownload(id, true);
      return presentBuiltinModel(await mustFind(id));
    },

    /** Resumes a paused or failed download from the bytes already on disk. */
    async resume(id: string): Promise<BuiltinModel> {
      const row = await mustFind(id);
      if (!row.source_url || (row.status !== 'paused' && row.status !== 'failed')) throw conflict(`'${id}' has no download to resume`, 'NOT_RESUMABLE');
      if (downloads.has(id)) return presentBuiltinModel(row);
      await assertOutboundAllowed('model-download', row.source_url);
      runDownload(row);
      return presentBuiltinModel({ ...row, status: 'downloading', error: null });
    },

    /** Cancels a download: stops it and removes the entry and its partial file. */
    async cancel(id: string): Promise<void> {
      const row = await mustFind(id);
      if (row.status === 'ready') throw conflict(`'${id}' is already downloaded: delete it instead`, 'NOT_DOWNLOADING');
      await stopDownload(id, false);
      await rm(partPath(id), { force: true });
      // The download may have finished while it was stopping: its file goes with the entry.
      const after = await repo.find(id);
      if (after?.status === 'ready') {
        deps.unload(id);
        await rm(filePath(after), { force: true });
      }
      await repo.remove(id);
      changed();
    },

    /** Renames an entry or changes its kind. */
    async update(id: string, patch: { name?: string; kind?: BuiltinModelKind }): Promise<BuiltinModel> {
      await mustFind(id);
      await repo.update(id, { ...patch, updated_at: clock.now() });
      changed();
      return presentBuiltinModel(await mustFind(id));
    },

    /** Deletes an entry and its file (unloading it first). */
    async remove(id: string): Promise<void> {
      const row = await mustFind(id);
      await stopDownload(id, false);
      if (row.kind === 'transcription') await deps.speech?.unload(filePath(row));
      else deps.unload(id);
      await repo.remove(id);
      await rm(partPath(id), { force: true });
      if (row.status === 'ready') await rm(filePath(row), { force: true });
      changed();
    },

    /** Calls `listener` whenever the set of ready models (or their names or kinds) changes. */
    onChange(listener: () => void): void {
      listeners.push(listener);
    },

    /** Stops every download (shutdown); they resume as paused entries. */
    async stop(): Promise<void> {
      await Promise.all([...downloads.keys()].map((id) => stopDownload(id, true)));
    },
  };
}
export type ModelLibrary = ReturnType<typeof createModelLibrary>;
