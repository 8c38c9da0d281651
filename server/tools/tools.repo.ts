import type { Db } from '../platform/db/knex';

/** A row of `tools`. JSON columns are text; `access_control` is NULL for public read. */
export interface ToolRow {
  id: string;
  user_id: string;
  name: string;
  type: string;
  description: string;
  config: string;
  specs: string;
  access_control: string | null;
  created_at: number;
  updated_at: number;
}

/** knex access to `tools`. */
export function createToolsRepo(db: Db) {
  return {
    async findById(id: string): Promise<ToolRow | undefined> {
      return db<ToolRow>('tools').where({ id }).first();
    },
    /** Every tool, newest change first. */
    async all(): Promise<ToolRow[]> {
      return db<ToolRow>('tools').select('*').orderBy([{ column: 'updated_at', order: 'desc' }, { column: 'id' }]);
    },
    /** Inserts a row; a taken id raises SQLite's UNIQUE violation. */
    async insert(row: ToolRow): Promise<ToolRow> {
      await db<ToolRow>('tools').insert(row);
      return (await db<ToolRow>('tools').where({ id: row.id }).first()) as ToolRow;
    },
    async update(id: string, patch: Partial<Omit<ToolRow, 'id' | 'user_id' | 'created_at'>>): Promise<ToolRow | undefined> {
      await db<ToolRow>('tools').where({ id }).update(patch);
      return db<ToolRow>('tools').where({ id }).first();
    },
    /** Ids of the tools `userId` owns. */
    async idsOfUser(userId: string): Promise<string[]> {
      return (await db<ToolRow>('tools').where({ user_id: userId }).select('id')).map((r) => r.id);
    },
    /** Deletes a row; true when it existed. */
    async remove(id: string): Promise<boolean> {
      return (await db<ToolRow>('tools').where({ id }).delete()) > 0;
    },
  };
}
export type ToolsRepo = ReturnType<typeof createToolsRepo>;
