import type { Db } from '../platform/db/knex';

/** A row of `memories`. */
export interface MemoryRow {
  id: string;
  user_id: string;
  content: string;
  embedding: Buffer | null;
  model: string | null;
  created_at: number;
  updated_at: number;
}

function numbers(row: MemoryRow): MemoryRow {
  return { ...row, created_at: Number(row.created_at), updated_at: Number(row.updated_at) };
}

/** knex access to `memories`; every query names the owner, so one person's ids never reach another's rows. */
export function createMemoriesRepo(db: Db) {
  return {
    /** A person's memories, oldest first. */
    async ofUser(userId: string): Promise<MemoryRow[]> {
      return (await db<MemoryRow>('memories').where({ user_id: userId }).orderBy([{ column: 'created_at' }, { column: 'id' }])).map(numbers);
    },
    async find(userId: string, id: string): Promise<MemoryRow | undefined> {
      const row = await db<MemoryRow>('memories').where({ id, user_id: userId }).first();
      return row ? numbers(row) : undefined;
    },
    async insert(row: MemoryRow): Promise<void> {
      await db('memories').insert(row);
    },
    async update(userId: string, id: string, change: Pick<MemoryRow, 'content' | 'embedding' | 'model' | 'updated_at'>): Promise<boolean> {
      return (await db('memories').where({ id, user_id: userId }).update(change)) > 0;
    },
    /** Stores embeddings made later (the embedder was unreachable, or its model changed). */
    async setEmbeddings(userId: string, rows: ReadonlyArray<Pick<MemoryRow, 'id' | 'embedding' | 'model'>>): Promise<void> {
      await db.transaction(async (trx) => {
        for (const row of rows) await trx('memories').where({ id: row.id, user_id: userId }).update({ embedding: row.embedding, model: row.model });
      });
    },
    async delete(userId: string, id: string): Promise<boolean> {
      return (await db('memories').where({ id, user_id: userId }).delete()) > 0;
    },
    async deleteAll(userId: string): Promise<number> {
      return db('memories').where({ user_id: userId }).delete();
    },
  };
}
export type MemoriesRepo = ReturnType<typeof createMemoriesRepo>;
