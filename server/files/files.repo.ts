import type { Db } from '../platform/db/knex';

/** A row of `files`. */
export interface FileRow {
  id: string;
  user_id: string;
  filename: string;
  mime_type: string;
  size: number;
  hash: string;
  purpose: string;
  meta: string;
  created_at: number;
  updated_at: number;
}

/** knex access to `files`. */
export function createFilesRepo(db: Db) {
  return {
    async insert(row: FileRow): Promise<void> {
      await db('files').insert(row);
    },
    async findById(id: string): Promise<FileRow | undefined> {
      return db<FileRow>('files').where({ id }).first();
    },
    async findMany(ids: readonly string[]): Promise<FileRow[]> {
      if (ids.length === 0) return [];
      return db<FileRow>('files').whereIn('id', [...ids]);
    },
    async delete(id: string): Promise<boolean> {
      return (await db('files').where({ id }).delete()) > 0;
    },
    /** Ids of a user's files. */
    async idsOfUser(userId: string): Promise<string[]> {
      const rows = await db('files').where({ user_id: userId }).select<{ id: string }[]>('id');
      return rows.map((r) => r.id);
    },
    /** Which of `ids` still have a row. */
    async existing(ids: readonly string[]): Promise<Set<string>> {
      const found = new Set<string>();
      for (let i = 0; i < ids.length; i += 500) {
        const rows = await db('files').whereIn('id', ids.slice(i, i + 500)).select<{ id: string }[]>('id');
        for (const r of rows) found.add(r.id);
      }
      return found;
    },
  };
}
export type FilesRepo = ReturnType<typeof createFilesRepo>;
