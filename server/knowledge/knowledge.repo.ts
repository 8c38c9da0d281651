import type { Db } from '../platform/db/knex';

/** A row of `knowledge`. `access_control` is JSON text, NULL for public read. */
export interface KnowledgeRow {
  id: string;
  user_id: string;
  name: string;
  description: string;
  access_control: string | null;
  meta: string;
  created_at: number;
  updated_at: number;
}

/** A file of a knowledge base with its ingestion state and the file's own name, size and type. */
export interface KnowledgeFileRow {
  file_id: string;
  status: string;
  error: string | null;
  created_at: number;
  filename: string | null;
  size: number | null;
  mime_type: string | null;
}

/** knex access to `knowledge`. */
export function createKnowledgeRepo(db: Db) {
  return {
    async insert(row: KnowledgeRow): Promise<void> {
      await db('knowledge').insert(row);
    },
    async findById(id: string): Promise<KnowledgeRow | undefined> {
      return db<KnowledgeRow>('knowledge').where({ id }).first();
    },
    async findMany(ids: readonly string[]): Promise<KnowledgeRow[]> {
      if (ids.length === 0) return [];
      return db<KnowledgeRow>('knowledge').whereIn('id', [...ids]);
    },
    /** Ids of the bases a user owns. */
    async idsOfUser(userId: string): Promise<string[]> {
      return (await db('knowledge').where({ user_id: userId }).select<{ id: string }[]>('id')).map((r) => r.id);
    },
    /** Every base, newest change first. */
    async all(): Promise<KnowledgeRow[]> {
      return db<KnowledgeRow>('knowledge').select('*').orderBy([{ column: 'updated_at', order: 'desc' }, { column: 'id' }]);
    },
    async update(id: string, patch: Partial<Pick<KnowledgeRow, 'name' | 'description' | 'access_control' | 'updated_at'>>): Promise<void> {
      await db('knowledge').where({ id }).update(patch);
    },
    async touch(id: string, now: number): Promise<void> {
      await db('knowledge').where({ id }).update({ updated_at: now });
    },
    /** A base's files, oldest first, with their names, sizes and types: one query (a join), however many files. */
    async files(id: string): Promise<KnowledgeFileRow[]> {
      return db('collection_files as cf')
        .leftJoin('files as f', 'f.id', 'cf.file_id')
        .where('cf.collection_id', id)
        .orderBy([{ column: 'cf.created_at' }, { column: 'cf.rowid' }])
        .select<KnowledgeFileRow[]>('cf.file_id', 'cf.status', 'cf.error', 'cf.created_at', 'f.filename', 'f.size', 'f.mime_type');
    },
    async delete(id: string): Promise<boolean> {
      return (await db('knowledge').where({ id }).delete()) > 0;
    },
  };
}
export type KnowledgeRepo = ReturnType<typeof createKnowledgeRepo>;
