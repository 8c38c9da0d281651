import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Clock } from '../platform/clock';
import type { Logger } from '../platform/log';
import { newId } from '../platform/ids';
import { writeGuarded } from './disk-writer';
import { fileForbidden, fileNotFound } from './file-errors';
import type { FileRow, FilesRepo } from './files.repo';

/** Who is asking: enough to check ownership. */
export interface FileCaller {
  id: string;
  role: string;
}

/** A new file arriving as a stream. */
export interface IncomingFile {
  userId: string;
  /** The name it was sent with (kept as metadata). */
  filename: string;
  stream: Readable;
  /** `chat` for attachments, `knowledge` for knowledge documents. */
  purpose?: string;
  meta?: Record<string, unknown>;
}

/** Runs when a file is deleted, before its row and bytes go (e.g. to drop its vectors). */
export type FileDeletedHook = (file: FileRow) => Promise<void>;
/** Tells which of these files something still uses (e.g. a knowledge base), so they are kept. */
export type FileUsageCheck = (fileIds: readonly string[]) => Promise<Set<string>>;

/**
 * Stored files: uploads stream to `<dataDir>/uploads/<id>` (the original name is metadata),
 * typed by sniffing, bounded by the upload limit. The one place that touches those bytes.
 */
export function createFilesService(deps: {
  repo: FilesRepo;
  dir: string;
  maxBytes: number;
  /** Other instances write into `dir` too (PARLEY_SHARED_DIR): their uploads in progress are not this run's leftovers. */
  shared?: boolean;
  clock: Clock;
  log: Logger;
}) {
  const { repo, dir, clock, log } = deps;
  const deletedHooks: FileDeletedHook[] = [];
  const usageChecks: FileUsageCheck[] = [];
  const pathOf = (id: string) => path.join(dir, id);
  // Wall time (file mtimes are wall time): a `.part` older than this process was cut off by a crash.
  const startedMs = Date.now();

  async function unlinkQuietly(file: string): Promise<void> {
    await rm(file, { force: true }).catch((error: unknown) => log.warn({ err: error, file }, 'could not remove a stored file'));
  }

  const service = {
    /** Where a file's bytes are (for extractors that need a path). */
    pathOf,

    /** Streams an upload to disk and records it. Throws 413 past the limit, 400 for a refused type or an empty file. */
    async create(incoming: IncomingFile, options: { maxBytes?: number } = {}): Promise<FileRow> {
      await mkdir(dir, { recursive: true });
      const id = newId();
      const partial = `${pathOf(id)}.part`;
      const filename = path.basename(incoming.filename.replace(/\\/g, '/')).slice(0, 255) || 'file';
      try {
        const written = await writeGuarded(incoming.stream, partial, { filename, maxBytes: options.maxBytes ?? deps.maxBytes });
        await rename(partial, pathOf(id));
        const now = clock.now();
        const row: FileRow = {
          id,
          user_id: incoming.userId,
          filename,
          mime_type: written.mime,
          size: written.size,
          hash: written.hash,
          purpose: incoming.purpose ?? 'chat',
          meta: JSON.stringify(incoming.meta ?? {}),
          created_at: now,
          updated_at: now,
        };
        await repo.insert(row);
        return row;
      } catch (error) {
        await unlinkQuietly(partial);
        await unlinkQuietly(pathOf(id));
        throw error;
      }
    },

    /** A file's row, or undefined. */
    async find(id: string): Promise<FileRow | undefined> {
      return repo.findById(id);
    },

    /** Rows of these ids that exist (any owner). */
    async findMany(ids: readonly string[]): Promise<FileRow[]> {
      return repo.findMany(ids);
    },

    /** The file if the caller owns it (admins may read any): 404 unknown, 403 someone else's. */
    async requireReadable(caller: FileCaller, id: string): Promise<FileRow> {
      const row = await repo.findById(id);
      if (!row) throw fileNotFound();
      if (row.user_id !== caller.id && caller.role !== 'admin') throw fileForbidden();
      return row;
    },

    /** The file if the caller owns it: 404 unknown, 403 someone else's. */
    async requireOwned(caller: FileCaller, id: string): Promise<FileRow> {
      const row = await repo.findById(id);
      if (!row) throw fileNotFound();
      if (row.user_id !== caller.id) throw fileForbidden();
      return row;
    },

    /** Reads a file's bytes as a stream. */
    openStream(id: string): ReadStream {
      return createReadStream(pathOf(id));
    },

    /** Deletes a file: hooks first (vectors), then the row, then the bytes. */
    async delete(row: FileRow): Promise<void> {
      for (const hook of deletedHooks) await hook(row);
      await repo.delete(row.id);
      await unlinkQuietly(pathOf(row.id));
    },

    /** Deletes those of these files that no registered user of files (e.g. a knowledge base) still needs. */
    async deleteUnused(ids: readonly string[]): Promise<number> {
      if (ids.length === 0) return 0;
      const kept = new Set<string>();
      for (const check of usageChecks) for (const id of await check(ids)) kept.add(id);
      let deleted = 0;
      for (const row of await repo.findMany(ids.filter((id) => !kept.has(id)))) {
        await service.delete(row);
        deleted += 1;
      }
      return deleted;
    },

    /** Registers work to do when a file is deleted (the retrieval engine drops the file's vectors). */
    onFileDeleted(hook: FileDeletedHook): void {
      deletedHooks.push(hook);
    },

    /** Registers a check that keeps files something still uses from being deleted with a chat. */
    addUsageCheck(check: FileUsageCheck): void {
      usageChecks.push(check);
    },

    /** Ids of a user's files, to remove their bytes when the user goes (rows cascade). */
    async idsOfUser(userId: string): Promise<string[]> {
      return repo.idsOfUser(userId);
    },

    /** Removes the bytes of these ids (their rows are already gone). */
    async removeBytes(ids: readonly string[]): Promise<void> {
      for (const id of ids) await unlinkQuietly(pathOf(id));
    },

    /** Removes bytes on disk older than a day with no row (left by a crash or a deleted user), and partial uploads of an earlier run. */
    async sweepOrphans(): Promise<number> {
      const names = await readdir(dir).catch(() => [] as string[]);
      const dayAgo = clock.nowMs() - 24 * 3600 * 1000;
      const ids = names.filter((n) => !n.endsWith('.part'));
      const existing = await repo.existing(ids);
      let removed = 0;
      for (const name of names) {
        if (existing.has(name)) continue;
        // Young files may be uploads finishing right now (bytes renamed, row not yet written).
        const info = await stat(path.join(dir, name)).catch(() => undefined);
        const leftByEarlierRun = !deps.shared && name.endsWith('.part') && info !== undefined && info.mtimeMs < startedMs;
        if (!info || (info.mtimeMs > dayAgo && !leftByEarlierRun)) continue;
        await unlinkQuietly(path.join(dir, name));
        removed += 1;
      }
      return removed;
    },
  };
  return service;
}
export type FilesService = ReturnType<typeof createFilesService>;
