import path from 'node:path';
import type { Logger } from '../../platform/log';
import type { CollectionIndex } from './collection-index';
import { buildIndex, type BuildProgress } from './build-index';
import type { IndexBuilder } from './index-builder';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '../analysis/languages';
import { breatherEvery } from '../../platform/breather';
import { readSnapshot, removeSnapshot, restoreSnapshotBytes, writeSnapshot, type CollectionFingerprint } from './snapshot';
import type { RetrievalRepo } from '../retrieval.repo';

/** Reports a rebuild's progress: chunks indexed so far of all. */
type Progress = BuildProgress;

/** Work done on the service's thread between two hand-backs of the event loop (restore, in-process rebuild). */
const SLICE_BUDGET_MS = 10;
/**
 * Collections smaller than this are rebuilt in-process (in slices, well under 100 ms of work in
 * all): a round trip to the builder thread, started on first use, would make the first search of
 * a fresh chat file wait longer than the rebuild itself.
 */
const BUILDER_REBUILD_FROM = 1000;
/**
 * Collections smaller than this are saved from memory (encoding them takes a few milliseconds);
 * larger ones by the builder. Encoding is one block on the event loop that grows with the
 * postings: 6,800 chunks of a web page held it for 0.1–0.2 s on a busy 2-core machine.
 */
const BUILDER_SAVE_FROM = 1000;

/** A changed index is written once no change came for this long (a burst is saved once)… */
const SAVE_DELAY_MS = 2000;
/** …or at the latest this long after the first unsaved change (a long ingestion saves now and then, not per file). */
const SAVE_MAX_DELAY_MS = 30_000;

/**
 * The in-memory indexes of collections, loaded lazily: from the snapshot in `indexes/` when it
 * matches what SQLite holds, else rebuilt from the chunks (the source of truth) and saved again.
 * A missing, damaged or stale snapshot is therefore only slower, never fatal.
 */
export function createLoadedIndexes(deps: { repo: RetrievalRepo; dir: string; log: Logger; model: () => Promise<{ model: string; dims?: number }>; builder?: IndexBuilder }) {
  const { repo, dir, log } = deps;
  const loaded = new Map<string, Promise<CollectionIndex>>();
  const dirty = new Set<string>();
  /** Bumped when a collection is forgotten (a build finishing later must not leave its file behind). */
  const generations = new Map<string, number>();
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

  /** Rebuilds on the service's own thread, in slices (small collections, or when the index builder cannot run). */
  async function rebuildHere(collectionId: string, model: string, dims: number | undefined, language: Language, total: number, progress?: Progress): Promise<CollectionIndex> {
    return buildIndex(repo, { collectionId, model, dims, language }, { total, progress, breathe: breatherEvery(SLICE_BUDGET_MS) });
  }

  /**
   * Rebuilds on the index builder's thread, which also writes the snapshot; the finished index
   * comes back as one buffer, restored here in slices. Undefined when the builder cannot run.
   */
  async function rebuildOnBuilder(collectionId: string, model: string, dims: number | undefined, language: Language, chunks: number, progress?: Progress): Promise<{ index: CollectionIndex; written: boolean } | undefined> {
    if (!deps.builder?.available || chunks < BUILDER_REBUILD_FROM) return undefined;
    const generation = generations.get(collectionId) ?? 0;
    try {
      const reply = await deps.builder.build({ collectionId, model, dims, language }, { file: fileOf(collectionId), handOver: true, progress });
      // Forgotten while it was built (its base or user was deleted): leave no file behind.
      if ((generations.get(collectionId) ?? 0) !== generation && reply.written) await removeSnapshot(fileOf(collectionId));
      const index = reply.bytes ? await restoreSnapshotBytes(reply.bytes, undefined, breatherEvery(SLICE_BUDGET_MS)) : undefined;
      if (index) return { index, written: reply.written };
      log.warn({ collectionId }, 'the index builder answered an unreadable index; rebuilding in-process');
    } catch (error) {
      log.warn({ err: error, collectionId }, 'the index builder failed; rebuilding in-process');
    }
    return undefined;
  }

  async function load(collectionId: string, progress?: Progress): Promise<CollectionIndex> {
    const { model, dims } = await deps.model();
    const language = await languageOf(collectionId);
    const expected = await fingerprint(collectionId, model, language);
    const started = Date.now();
    const restored = await readSnapshot(fileOf(collectionId), expected, dims, breatherEvery(SLICE_BUDGET_MS));
    if (restored) {
      log.debug({ collectionId, chunks: restored.count, ms: Date.now() - started }, 'search index restored');
      return restored;
    }
    const models = await repo.modelsOf(collectionId);
    const built = await rebuildOnBuilder(collectionId, model, dims, language, expected.count, progress);
    const index = built?.index ?? (await rebuildHere(collectionId, model, dims, language, expected.count, progress));
    // Vectors of another model cannot be compared with this model's query vectors: they were left out.
    if (models.some((m) => m !== model)) log.info({ collectionId }, 'index built while some chunks wait for re-embedding');
    log.info({ collectionId, chunks: index.count, ms: Date.now() - started, thread: built ? 'index builder' : 'service' }, 'search index rebuilt from the database');
    if (!built?.written) markDirty(collectionId);
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

  /**
   * Writes one collection's snapshot: a large one on the index builder's thread when it can run
   * (it reads the collection from the database — the source of truth, which the index mirrors —
   * and writes, so saving blocks nothing here), else from the index in memory. Returns false when
   * nothing was written because the database holds other chunks than the index in memory.
   */
  async function save(collectionId: string, index: CollectionIndex, here: boolean): Promise<boolean> {
    if (!here && deps.builder?.available && index.count >= BUILDER_SAVE_FROM) {
      try {
        // Not written when the collection changed while it was read: that change marked it dirty again.
        await deps.builder.build({ collectionId, model: index.model, dims: index.dims, language: index.language }, { file: fileOf(collectionId), handOver: false });
        return true;
      } catch (error) {
        log.warn({ err: error, collectionId }, 'the index builder could not save an index; saving in-process');
      }
    }
    const print = await fingerprint(collectionId, index.model, index.language);
    // The database holds other chunks than this index (a batch not added yet, or another
    // instance's change not announced yet): a snapshot now would carry the wrong fingerprint.
    const held = index.idSummary();
    if (print.count !== held.count || print.maxId !== held.maxId || print.sumId !== held.sumId) return false;
    await writeSnapshot(fileOf(collectionId), index, print);
    return true;
  }

  /** `final`: at shutdown (an index that cannot be saved now is not retried); `here`: from memory, never on the builder. */
  async function flush(options: { final?: boolean; here?: boolean } = {}): Promise<void> {
    const run = saving.then(async () => {
      const ids = [...dirty];
      dirty.clear();
      for (const collectionId of ids) {
        const pending = loaded.get(collectionId);
        if (!pending) continue;
        try {
          if (!(await save(collectionId, await pending, options.here === true))) {
            if (!options.final) markDirty(collectionId);
            continue;
          }
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
      generations.set(collectionId, (generations.get(collectionId) ?? 0) + 1);
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
    /** Saves every changed index now (on the index builder's thread when it can run). */
    async flush(): Promise<void> {
      if (timer) clearTimeout(timer);
      timer = undefined;
      await flush({ final: true });
    },
    /** At shutdown: saves every changed index from memory (quicker than reading the database again), then stops the builder. */
    async close(): Promise<void> {
      if (timer) clearTimeout(timer);
      timer = undefined;
      await flush({ final: true, here: true });
      await deps.builder?.stop();
    },
  };
}
export type LoadedIndexes = ReturnType<typeof createLoadedIndexes>;
