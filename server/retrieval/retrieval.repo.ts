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
    /** Adds a file to a collection as `pending` (or resets it to pending); its old chunks go. */
    async putFile(row: Omit<CollectionFileRow, 'error'>): Promise<void> {
      await db.transaction(async (trx) => {
        await trx('chunks').where({ collection_id: row.collection_id, file_id: row.file_id }).delete();
        await trx('collection_files')
          .insert({ ...row, error: null })
          .onConflict(['collection_id', 'file_id'])
          .merge({ status: row.status, error: null, updated_at: row.updated_at });
      });
    },
    async findFile(collectionId: string, fileId: string): Promise<CollectionFileRow | undefined> {
      return db<CollectionFileRow>('collection_files').where({ collection_id: collectionId, file_id: fileId }).first();
    },
    async setStatus(collectionId: string, fileId: string, status: string, error: string | null, now: number): Promise<void> {
      await db('collection_files').where({ collection_id: collectionId, file_id: fileId }).update({ status, error, updated_at: now });
    },
    /** Files of a collection, oldest first. */
    async filesOf(collectionId: string): Promise<CollectionFileRow[]> {
      return db<CollectionFileRow>('collection_files').where({ collection_id: collectionId }).orderByRaw('created_at, rowid');
    },
    /** File counts of these collections. */
    async fileCounts(collectionIds: readonly string[]): Promise<Map<string, number>> {
      const counts = new Map<string, number>();
      for (let i = 0; i < collectionIds.length; i += 500) {
        const rows = await db('collection_files')
          .whereIn('collection_id', collectionIds.slice(i, i + 500))
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
    },
    /**
     * Replaces a file's chunks and marks it completed, in one transaction: readers see the old
     * state or the new one, never half. False when the file left the collection meanwhile.
     */
    async storeChunks(collectionId: string, fileId: string, chunks: readonly NewChunk[], model: string, now: number): Promise<boolean> {
      return db.transaction(async (trx) => {
        const present = await trx('collection_files').where({ collection_id: collectionId, file_id: fileId }).first();
        if (!present) return false;
        await trx('chunks').where({ collection_id: collectionId, file_id: fileId }).delete();
        const rows = chunks.map((c) => ({ ...c, collection_id: collectionId, file_id: fileId, model }));
        // Multi-row inserts: row-by-row is ~10× slower in SQLite through knex.
        for (let i = 0; i < rows.length; i += 100) await trx('chunks').insert(rows.slice(i, i + 100));
        await trx('collection_files').where({ collection_id: collectionId, file_id: fileId }).update({ status: 'completed', error: null, updated_at: now });
        return true;
      });
    },
    /** Chunk ids of a file in a collection, ascending. */
    async chunkIdsOf(collectionId: string, fileId: string): Promise<number[]> {
      const rows = await db('chunks').where({ collection_id: collectionId, file_id: fileId }).orderBy('id').select<{ id: number }[]>('id');
      return rows.map((r) => r.id);
    },
    /** What a collection holds, to tell whether a saved index is current. */
    async fingerprint(collectionId: string): Promise<{ count: number; maxId: number; sumId: number; models: string[] }> {
      const row = await db('chunks')
        .where({ collection_id: collectionId })
        .first<{ count: number; maxId: number | null; sumId: number | null }>(db.raw('count(*) as count'), db.raw('max(id) as maxId'), db.raw('sum(id) as sumId'));
      const models = await db('chunks').where({ collection_id: collectionId }).distinct<{ model: string }[]>('model');
      return { count: Number(row?.count ?? 0), maxId: Number(row?.maxId ?? 0), sumId: Number(row?.sumId ?? 0), models: models.map((m) => m.model) };
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
