import type { Db } from '../platform/db/knex';

/** A row of `folders`. */
export interface FolderRow {
  id: string;
  user_id: string;
  parent_id: string | null;
  name: string;
  is_expanded: number | boolean;
  created_at: number;
  updated_at: number;
}

/** knex access to `folders` (and the `chats.folder_id` links a deletion clears). */
export function createFoldersRepo(db: Db) {
  return {
    async insert(row: FolderRow): Promise<void> {
      await db('folders').insert(row);
    },
    async findById(id: string): Promise<FolderRow | undefined> {
      return db<FolderRow>('folders').where({ id }).first();
    },
    /** Every folder of a user, by name. */
    async listOf(userId: string): Promise<FolderRow[]> {
      return db<FolderRow>('folders').where({ user_id: userId }).orderBy([{ column: 'name', order: 'asc' }, { column: 'created_at', order: 'asc' }]);
    },
    async update(id: string, patch: Partial<FolderRow>): Promise<void> {
      await db('folders').where({ id }).update(patch);
    },
    /** Deletes folders (children cascade) and takes their chats out of any folder, in one transaction. */
    async deleteTree(userId: string, ids: readonly string[]): Promise<void> {
      await db.transaction(async (trx) => {
        await trx('chats').where({ user_id: userId }).whereIn('folder_id', [...ids]).update({ folder_id: null });
        await trx('folders').whereIn('id', [...ids]).delete();
      });
    },
  };
}
export type FoldersRepo = ReturnType<typeof createFoldersRepo>;
