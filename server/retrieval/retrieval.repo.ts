import type { Db } from '../platform/db/knex';

/** A row of `collection_files`. */
export interface CollectionFileRow {
  collection_id: string;
  file_id: string;
  knowledge_id: string | null;
  status: string;
  error: string | null;
  created_at: number;
  updated_at: number;
}

/** A chunk ready to store (its id is assigned by SQLite). */
export interface NewChunk {
  seq: number;
  text: string;
  context: string | null;
  meta: string;
  embedding: Buffer | null;
}

/** The chunks of one file, to store with others in one transaction. */
export interface FileChunks {
  collectionId: string;
  fileId: string;
  chunks: readonly NewChunk[];
}

/** Key of a file in a collection (maps of {@link FileChunks}). */
export const fileKey = (collectionId: string, fileId: string) => `${collectionId}\u0000${fileId}`;

/** Ids per statement: well under SQLite's variable limit. */
const IN_SLICE = 500;
/** Chunk rows per multi-row insert (8 columns each). */
const INSERT_SLICE = 400;

/** Groups items by collection, keeping their order. */
function byCollection<T extends { collectionId: string }>(items: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const list = groups.get(item.collectionId);
    if (list) list.push(item);
    else groups.set(item.collectionId, [item]);
  }
  return groups;
}

/** `items` in slices of `size`. */
function* slices<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/** A stored chunk as the index rebuild reads it. */
export interface IndexChunkRow {
  id: number;
  file_id: string;
  text: string;
  embedding: Buffer | null;
  model: string;
}

/** A stored chunk as search results show it. */
export interface ChunkRow {
  id: number;
  collection_id: string;
  file_id: string;
  seq: number;
  text: string;
  context: string | null;
  meta: string;
}

/** knex access to `collection_files` and `chunks`. */
export function createRetrievalRepo(db: Db) {
  return {
    /**
     * Adds a file to a collection as `pending` (or resets it to pending), in one statement. Old
     * chunks need no delete here: a failed file has none, and storing replaces a file's chunks.
     */
    async putFile(row: Omit<CollectionFileRow, 'error'>): Promise<void> {
      await db('collection_files')
        .insert({ ...row, error: null })
        .onConflict(['collection_id', 'file_id'])
        .merge({ status: row.status, error: null, updated_at: row.updated_at });
    },
    /**
     * {@link putFile} unless the file is in the collection already and has not failed, in one
     * statement; false when it was there (nothing changed).
     */
    async putNewFile(row: Omit<CollectionFileRow, 'error'>): Promise<boolean> {
      const rows = await db('collection_files')
        .insert({ ...row, error: null })
        .onConflict(['collection_id', 'file_id'])
        .merge({ status: row.status, error: null, updated_at: row.updated_at })
        .where('collection_files.status', 'failed')
        .returning<Array<{ file_id: string }>>('file_id');
      return rows.length > 0;
    },
    async findFile(collectionId: string, fileId: string): Promise<CollectionFileRow | undefined> {
      return db<CollectionFileRow>('collection_files').where({ collection_id: collectionId, file_id: fileId }).first();
    },
    async setStatus(collectionId: string, fileId: string, status: string, error: string | null, now: number): Promise<void> {
      await db('collection_files').where({ collection_id: collectionId, file_id: fileId }).update({ status, error, updated_at: now });
    },
    /**
     * Moves the files of a batch that are still in their collection to `status`; returns the
     * keys ({@link fileKey}) of those it found (the others left meanwhile).
     */
    async claim(files: ReadonlyArray<{ collectionId: string; fileId: string }>, status: string, now: number): Promise<Set<string>> {
      const found = new Set<string>();
      for (const [collectionId, list] of byCollection(files)) {
        for (const part of slices(list.map((f) => f.fileId), IN_SLICE)) {
          const rows = await db('collection_files')
            .where({ collection_id: collectionId })
            .whereIn('file_id', part)
            .update({ status, error: null, updated_at: now })
            .returning<Array<{ file_id: string }>>('file_id');
          for (const r of rows) found.add(fileKey(collectionId, r.file_id));
        }
      }
      return found;
    },
    /** Files of a collection, oldest first. */
    async filesOf(collectionId: string): Promise<CollectionFileRow[]> {
      return db<CollectionFileRow>('collection_files').where({ collection_id: collectionId }).orderByRaw('created_at, rowid');
    },
    /** Counts of the files of these collections that did not fail to ingest. */
    async fileCounts(collectionIds: readonly string[]): Promise<Map<string, number>> {
      const counts = new Map<string, number>();
      for (let i = 0; i < collectionIds.length; i += 500) {
        const rows = await db('collection_files')
          .whereIn('collection_id', collectionIds.slice(i, i + 500))
          .whereNot({ status: 'failed' })
          .groupBy('collection_id')
          .select<{ collection_id: string; n: number }[]>('collection_id', db.raw('count(*) as n'));
        for (const r of rows) counts.set(r.collection_id, Number(r.n));
      }
      return counts;
    },
    /** Rows in any of these states (to resume ingestion after a restart). */
    async withStatus(statuses: readonly string[]): Promise<CollectionFileRow[]> {
      return db<CollectionFileRow>('collection_files').whereIn('status', [...statuses]).orderBy('created_at');
    },
    /** Collections a file belongs to. */
    async collectionsOfFile(fileId: string): Promise<string[]> {
      const rows = await db('collection_files').where({ file_id: fileId }).select<{ collection_id: string }[]>('collection_id');
      return rows.map((r) => r.collection_id);
    },
    /** Every collection entry of these files (to clean up after them). */
    async entriesOfFiles(fileIds: readonly string[]): Promise<Array<Pick<CollectionFileRow, 'collection_id' | 'file_id' | 'knowledge_id'>>> {
      const out: Array<Pick<CollectionFileRow, 'collection_id' | 'file_id' | 'knowledge_id'>> = [];
      for (const part of slices(fileIds, IN_SLICE)) {
        out.push(...(await db('collection_files').whereIn('file_id', part).select<CollectionFileRow[]>('collection_id', 'file_id', 'knowledge_id')));
      }
      return out;
    },
    /** Which of these files belong to a knowledge base. */
    async inKnowledge(fileIds: readonly string[]): Promise<Set<string>> {
      const found = new Set<string>();
      for (let i = 0; i < fileIds.length; i += 500) {
        const rows = await db('collection_files')
          .whereIn('file_id', fileIds.slice(i, i + 500))
          .whereNotNull('knowledge_id')
          .distinct<{ file_id: string }[]>('file_id');
        for (const r of rows) found.add(r.file_id);
      }
      return found;
    },
    async removeFile(collectionId: string, fileId: string): Promise<boolean> {
      return (await db('collection_files').where({ collection_id: collectionId, file_id: fileId }).delete()) > 0;
    },
    async removeCollection(collectionId: string): Promise<void> {
      await db('collection_files').where({ collection_id: collectionId }).delete();
      await db('collection_languages').where({ collection_id: collectionId }).delete();
    },
    /** The analysis language of a collection, when set. */
    async languageOf(collectionId: string): Promise<string | undefined> {
      const row = await db('collection_languages').where({ collection_id: collectionId }).first<{ language: string } | undefined>('language');
      return row?.language;
    },
    /** Sets a collection's language (only when it has none with `ifUnset`); answers the language in force. */
    async setLanguage(collectionId: string, language: string, now: number, ifUnset = false): Promise<string> {
      if (ifUnset) await db('collection_languages').insert({ collection_id: collectionId, language, updated_at: now }).onConflict('collection_id').ignore();
      else await db('collection_languages').insert({ collection_id: collectionId, language, updated_at: now }).onConflict('collection_id').merge();
      const row = await db('collection_languages').where({ collection_id: collectionId }).first<{ language: string } | undefined>('language');
      return row?.language ?? language;
    },
    /**
     * Stores the chunks of several files (replacing older ones) and marks them completed, in one
     * transaction: readers see each file before or after, never half. Files that left their
     * collection meanwhile are skipped. Multi-row inserts (row-by-row is ~10× slower through
     * knex) that return the new ids. Answers the chunk ids of each stored file ({@link fileKey}),
     * in chunk order.
     */
    async storeMany(files: readonly FileChunks[], model: string, now: number): Promise<Map<string, number[]>> {
      return db.transaction(async (trx) => {
        const kept: FileChunks[] = [];
        for (const [collectionId, list] of byCollection(files)) {
          // Inside the transaction nobody sees `completed` before the chunks; the rows it finds are the files still there.
          const present = new Set<string>();
          for (const part of slices(list.map((f) => f.fileId), IN_SLICE)) {
            const rows = await trx('collection_files')
              .where({ collection_id: collectionId })
              .whereIn('file_id', part)
              .update({ status: 'completed', error: null, updated_at: now })
              .returning<Array<{ file_id: string }>>('file_id');
            for (const r of rows) present.add(r.file_id);
          }
          const here = list.filter((f) => present.has(f.fileId));
          for (const part of slices(here.map((f) => f.fileId), IN_SLICE)) await trx('chunks').where({ collection_id: collectionId }).whereIn('file_id', part).delete();
          kept.push(...here);
        }
        const ids = new Map<string, number[]>(kept.map((f) => [fileKey(f.collectionId, f.fileId), new Array<number>(f.chunks.length)]));
        const rows = kept.flatMap((f) => f.chunks.map((c) => ({ ...c, collection_id: f.collectionId, file_id: f.fileId, model })));
        for (const part of slices(rows, INSERT_SLICE)) {
          const inserted = await trx('chunks').insert(part).returning<Array<{ id: number; collection_id: string; file_id: string; seq: number }>>(['id', 'collection_id', 'file_id', 'seq']);
          for (const r of inserted) ids.get(fileKey(r.collection_id, r.file_id))![r.seq] = Number(r.id);
        }
        return ids;
      });
    },
    /**
     * What a collection holds, to tell whether a saved index is current: read from the
     * (collection_id, file_id) index alone (ids are in every index), never from the chunk rows.
     */
    async fingerprint(collectionId: string): Promise<{ count: number; maxId: number; sumId: number }> {
      const row = await db('chunks')
        .where({ collection_id: collectionId })
        .first<{ count: number; maxId: number | null; sumId: number | null }>(db.raw('count(*) as count'), db.raw('max(id) as "maxId"'), db.raw('sum(id) as "sumId"'));
      return { count: Number(row?.count ?? 0), maxId: Number(row?.maxId ?? 0), sumId: Number(row?.sumId ?? 0) };
    },
    /** Embedding models of a collection's chunks (reads every row: only for rebuilds). */
    async modelsOf(collectionId: string): Promise<string[]> {
      const models = await db('chunks').where({ collection_id: collectionId }).distinct<{ model: string }[]>('model');
      return models.map((m) => m.model);
    },
    /** A page of a collection's chunks for an index rebuild, by ascending id. */
    async chunksAfter(collectionId: string, afterId: number, limit: number): Promise<IndexChunkRow[]> {
      return db('chunks')
        .where({ collection_id: collectionId })
        .andWhere('id', '>', afterId)
        .orderBy('id')
        .limit(limit)
        .select<IndexChunkRow[]>('id', 'file_id', 'text', 'embedding', 'model');
    },
    /** One file's chunks in a collection, in document order (an attached file sent whole; the first `limit` for a file's preview). */
    async chunksOfFile(collectionId: string, fileId: string, limit?: number): Promise<Array<Pick<ChunkRow, 'seq' | 'text' | 'context' | 'meta'>>> {
      const query = db('chunks').where({ collection_id: collectionId, file_id: fileId }).orderBy('seq');
      if (limit !== undefined) void query.limit(limit);
      return query.select<Array<Pick<ChunkRow, 'seq' | 'text' | 'context' | 'meta'>>>('seq', 'text', 'context', 'meta');
    },
    /** How many chunks a file has in a collection. */
    async chunkCount(collectionId: string, fileId: string): Promise<number> {
      const row = await db('chunks').where({ collection_id: collectionId, file_id: fileId }).first<{ n: number | string } | undefined>(db.raw('count(*) as n'));
      return Number(row?.n ?? 0);
    },
    async chunksByIds(ids: readonly number[]): Promise<ChunkRow[]> {
      if (ids.length === 0) return [];
      return db('chunks').whereIn('id', [...ids]).select<ChunkRow[]>('id', 'collection_id', 'file_id', 'seq', 'text', 'context', 'meta');
    },
    /** Collections holding chunks embedded by another model than `model`. */
    async collectionsNotOn(model: string): Promise<Array<{ collection_id: string; n: number }>> {
      return db('chunks').whereNot({ model }).groupBy('collection_id').select<Array<{ collection_id: string; n: number }>>('collection_id', db.raw('count(*) as n'));
    },
    /** A page of chunks still on another model. */
    async chunksNotOn(collectionId: string, model: string, limit: number): Promise<Array<{ id: number; text: string }>> {
      return db('chunks').where({ collection_id: collectionId }).whereNot({ model }).orderBy('id').limit(limit).select<Array<{ id: number; text: string }>>('id', 'text');
    },
    /** Writes new embeddings in one transaction. */
    async updateEmbeddings(rows: ReadonlyArray<{ id: number; embedding: Buffer }>, model: string): Promise<void> {
      await db.transaction(async (trx) => {
        for (const row of rows) await trx('chunks').where({ id: row.id }).update({ embedding: row.embedding, model });
      });
    },
    /** Every collection id that has files. */
    async allCollections(): Promise<string[]> {
      const rows = await db('collection_files').distinct<{ collection_id: string }[]>('collection_id');
      return rows.map((r) => r.collection_id);
    },
  };
}
export type RetrievalRepo = ReturnType<typeof createRetrievalRepo>;
