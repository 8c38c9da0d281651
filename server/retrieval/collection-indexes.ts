import path from 'node:path';
import type { Logger } from '../platform/log';
import { CollectionIndex } from './collection-index';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from './languages';
import { readSnapshot, removeSnapshot, writeSnapshot, type CollectionFingerprint } from './index-snapshot';
import type { IndexChunkRow, RetrievalRepo } from './retrieval.repo';

/** Float32 view of a stored embedding (copied when the bytes are not 4-aligned). */
export function vectorOf(blob: Buffer | null): Float32Array | null {
  if (!blob || blob.length === 0 || blob.length % 4 !== 0) return null;
  if (blob.byteOffset % 4 === 0) return new Float32Array(blob.buffer, blob.byteOffset, blob.length / 4);
  return new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.length));
}

/** A vector as stored in SQLite: raw little-endian float32 bytes. */
export function blobOf(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

/** Reports a rebuild's progress: chunks indexed so far of all. */
type Progress = (done: number, total: number) => void;

/** Rows fetched per page while rebuilding an index from SQLite. */
const PAGE = 1000;
/** Rows indexed in one go while rebuilding (a few milliseconds of work)… */
const SLICE = 32;
/** …and the time after which a rebuild hands the event loop back to requests. */
const SLICE_BUDGET_MS = 10;

const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));
/** A changed index is written once no change came for this long (a burst is saved once)… */
const SAVE_DELAY_MS = 2000;
/** …or at the latest this long after the first unsaved change (a long ingestion saves now and then, not per file). */
const SAVE_MAX_DELAY_MS = 30_000;

/**
 * The in-memory indexes of collections, loaded lazily: from the snapshot in `indexes/` when it
 * matches what SQLite holds, else rebuilt from the chunks (the source of truth) and saved again.
 * A missing, damaged or stale snapshot is therefore only slower, never fatal.
 */
export function createCollectionIndexes(deps: { repo: RetrievalRepo; dir: string; log: Logger; model: () => Promise<{ model: string; dims?: number }> }) {
  const { repo, dir, log } = deps;
  const loaded = new Map<string, Promise<CollectionIndex>>();
  const dirty = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let firstChangeAt = 0;
  let saving: Promise<void> = Promise.resolve();

  const fileOf = (collectionId: string) => path.join(dir, `${collectionId.replace(/[^A-Za-z0-9_-]/g, '_')}.idx`);

  async function languageOf(collectionId: string): Promise<Language> {
    const language = await repo.languageOf(collectionId);
    return isLanguage(language) ? language : DEFAULT_LANGUAGE;
  }

  async function fingerprint(collectionId: string, model: string, language: Language): Promise<CollectionFingerprint> {
    const f = await repo.fingerprint(collectionId);
    return { count: f.count, maxId: f.maxId, sumId: f.sumId, model, language };
  }

  async function rebuild(collectionId: string, model: string, dims: number | undefined, language: Language, progress?: Progress): Promise<CollectionIndex> {
    const total = progress ? (await repo.fingerprint(collectionId)).count : 0;
    let done = 0;
    let index: CollectionIndex | undefined;
    let afterId = 0;
    let sliceStarted = performance.now();
    for (;;) {
      const rows: IndexChunkRow[] = await repo.chunksAfter(collectionId, afterId, PAGE);
      if (rows.length === 0) break;
      afterId = rows[rows.length - 1]!.id;
      if (!index) {
        const sample = rows.filter((r) => r.model === model).map((r) => vectorOf(r.embedding)).find((v) => v !== null);
        index = CollectionIndex.empty(dims ?? sample?.length ?? 0, model, language);
      }
      // Small slices, and the event loop handed back every few milliseconds: a rebuild of 100k
      // chunks takes seconds, and requests keep being answered meanwhile.
      for (let i = 0; i < rows.length; i += SLICE) {
        index.add(rows.slice(i, i + SLICE).map((r) => ({ id: r.id, fileId: r.file_id, text: r.text, vector: r.model === model ? vectorOf(r.embedding) : null })));
        if (performance.now() - sliceStarted >= SLICE_BUDGET_MS) {
          await yieldToRequests();
          sliceStarted = performance.now();
        }
      }
      done += rows.length;
      progress?.(done, total);
    }
    return index ?? CollectionIndex.empty(dims ?? 0, model, language);
  }

  async function load(collectionId: string, progress?: Progress): Promise<CollectionIndex> {
    const { model, dims } = await deps.model();
    const language = await languageOf(collectionId);
    const expected = await fingerprint(collectionId, model, language);
    const started = Date.now();
    const restored = await readSnapshot(fileOf(collectionId), expected, dims);
    if (restored) {
      log.debug({ collectionId, chunks: restored.count, ms: Date.now() - started }, 'search index restored');
      return restored;
    }
    const models = await repo.modelsOf(collectionId);
    // Vectors of another model cannot be compared with this model's query vectors: leave them out.
    const index = await rebuild(collectionId, model, dims, language, progress);
    if (models.some((m) => m !== model)) log.info({ collectionId }, 'index built while some chunks wait for re-embedding');
    log.info({ collectionId, chunks: index.count, ms: Date.now() - started }, 'search index rebuilt from the database');
    markDirty(collectionId);
    return index;
  }

  function markDirty(collectionId: string): void {
    dirty.add(collectionId);
    const now = Date.now();
    if (timer) clearTimeout(timer);
    else firstChangeAt = now;
    timer = setTimeout(
      () => {
        timer = undefined;
        void flush();
      },
      Math.max(0, Math.min(SAVE_DELAY_MS, firstChangeAt + SAVE_MAX_DELAY_MS - now)),
    );
    timer.unref();
  }

  async function flush(final = false): Promise<void> {
    const run = saving.then(async () => {
      const ids = [...dirty];
      dirty.clear();
      for (const collectionId of ids) {
        const pending = loaded.get(collectionId);
        if (!pending) continue;
        try {
          const index = await pending;
          const print = await fingerprint(collectionId, index.model, index.language);
          // The database holds other chunks than this index (a batch not added yet, or another
          // instance's change not announced yet): a snapshot now would carry the wrong fingerprint.
          if (print.count !== index.count) {
            if (!final) markDirty(collectionId);
            continue;
          }
          await writeSnapshot(fileOf(collectionId), index, print);
          // Forgotten while it was being written (its base or user was deleted): leave no file behind.
          if (loaded.get(collectionId) !== pending) await removeSnapshot(fileOf(collectionId));
        } catch (error) {
          log.warn({ err: error, collectionId }, 'could not save a search index (it will be rebuilt)');
        }
      }
    });
    saving = run.catch(() => undefined);
    await run;
  }

  return {
    /** The collection's index, loading or rebuilding it on first use. */
    get(collectionId: string, progress?: Progress): Promise<CollectionIndex> {
      let pending = loaded.get(collectionId);
      if (!pending) {
        pending = load(collectionId, progress);
        loaded.set(collectionId, pending);
        pending.catch(() => loaded.delete(collectionId));
      }
      return pending;
    },
    /** The index if it is in memory already (no loading). */
    peek(collectionId: string): Promise<CollectionIndex> | undefined {
      return loaded.get(collectionId);
    },
    /** Notes that a loaded index changed, so it is saved soon. */
    changed(collectionId: string): void {
      if (loaded.has(collectionId)) markDirty(collectionId);
    },
    /** Forgets a collection's index in memory and on disk (it is rebuilt on next use). */
    async invalidate(collectionId: string): Promise<void> {
      loaded.delete(collectionId);
      dirty.delete(collectionId);
      await removeSnapshot(fileOf(collectionId));
    },
    /**
     * Drops a collection's index from memory only, every one when no id is given (another
     * instance changed the collection; on next use the snapshot's fingerprint decides whether it
     * is still good, else the index is rebuilt from the database).
     */
    forget(collectionId?: string): void {
      for (const id of collectionId === undefined ? [...loaded.keys()] : [collectionId]) {
        loaded.delete(id);
        dirty.delete(id);
      }
    },
    /** Where a collection's snapshot lives. */
    fileOf,
    /** Saves every changed index now (at shutdown). */
    async flush(): Promise<void> {
      if (timer) clearTimeout(timer);
      timer = undefined;
      await flush(true);
    },
  };
}
export type CollectionIndexes = ReturnType<typeof createCollectionIndexes>;
