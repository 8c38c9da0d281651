import type { BuiltinModelKind, BuiltinModelStatus } from '../contracts/builtin';
import type { Db } from '../platform/db/knex';

/** A row of `builtin_models`. */
export interface BuiltinModelRow {
  id: string;
  name: string;
  file_name: string;
  status: BuiltinModelStatus;
  kind: BuiltinModelKind;
  size: number;
  downloaded: number;
  architecture: string | null;
  context_length: number | null;
  quantization: string | null;
  ram_estimate: number | null;
  source_url: string | null;
  sha256: string | null;
  error: string | null;
  created_by: string | null;
  created_at: number;
  updated_at: number;
}

const numeric = (row: BuiltinModelRow): BuiltinModelRow => ({
  ...row,
  size: Number(row.size),
  downloaded: Number(row.downloaded),
  ram_estimate: row.ram_estimate === null ? null : Number(row.ram_estimate),
});

/**
 * The model library's table. Every built-in chat reads its entry: rows (and absences) are kept
 * by id in memory, and every write (all of which go through here) drops them.
 */
export function createBuiltinRepo(db: Db) {
  const cache = new Map<string, BuiltinModelRow | null>();
  let version = 0;
  const writing = async (write: () => Promise<unknown>): Promise<void> => {
    version += 1;
    cache.clear();
    try {
      await write();
    } finally {
      version += 1;
      cache.clear();
    }
  };
  return {
    async list(): Promise<BuiltinModelRow[]> {
      return (await db<BuiltinModelRow>('builtin_models').orderBy('created_at', 'asc').orderBy('id')).map(numeric);
    },
    async find(id: string): Promise<BuiltinModelRow | undefined> {
      const cached = cache.get(id);
      if (cached !== undefined) return cached === null ? undefined : { ...cached };
      const readAt = version;
      const found = await db<BuiltinModelRow>('builtin_models').where({ id }).first();
      const row = found ? numeric(found) : undefined;
      // A write that ran meanwhile may have changed it: keep only what no write overtook.
      if (readAt === version) cache.set(id, row ? { ...row } : null);
      return row;
    },
    async insert(row: BuiltinModelRow): Promise<void> {
      await writing(() => db('builtin_models').insert(row));
    },
    async update(id: string, patch: Partial<BuiltinModelRow>): Promise<void> {
      await writing(() => db('builtin_models').where({ id }).update(patch));
    },
    async remove(id: string): Promise<void> {
      await writing(() => db('builtin_models').where({ id }).delete());
    },
  };
}
export type BuiltinRepo = ReturnType<typeof createBuiltinRepo>;
