import type { Db } from '../platform/db/knex';
import { createTableCache, tableFeed } from '../platform/db/table-cache';

/** Rows kept by id at most; past this the cache starts over. */
const CACHE_LIMIT = 2_000;

/** A row of `models`. JSON columns are text; `access_control` is NULL for public read. */
export interface ModelRow {
  id: string;
  user_id: string;
  base_model_id: string | null;
  name: string;
  params: string;
  meta: string;
  access_control: string | null;
  is_active: number | boolean;
  created_at: number;
  updated_at: number;
}

/** A model row with its owner's public fields, for list entries. */
export interface ModelWithOwnerRow extends ModelRow {
  owner_name: string | null;
  owner_email: string | null;
  owner_role: string | null;
}

/** Models joined with their owner's public fields. */
function withOwners(db: Db) {
  return db('models').leftJoin('users', 'users.id', 'models.user_id').select('models.*', 'users.name as owner_name', 'users.email as owner_email', 'users.role as owner_role');
}

/** knex access to `models`. */
export function createModelsRepo(db: Db) {
  // Chat completions read the model row on every request: rows (and absences) are kept by id,
  // dropped on any write to `models` (through this repo, another path, or a cascade from a
  // deleted user).
  const cache = new Map<string, ModelRow | null>();
  const rows = createTableCache(() => cache.clear(), tableFeed(db, 'models'));
  // The same, joined with the owner (what resolving a model for a chat reads): owners' names
  // and roles come from `users`.
  const withOwnerCache = new Map<string, ModelWithOwnerRow | null>();
  const withOwner = createTableCache(() => withOwnerCache.clear(), tableFeed(db, 'models', 'users'));
  /** Runs a write with both caches dropped before and after it. */
  const writing = <T>(write: () => Promise<T>): Promise<T> => rows.write(() => withOwner.write(write));
  return {
    /** One row (or its absence), from memory after the first read; any write to `models` drops the cache. */
    async findById(id: string): Promise<ModelRow | undefined> {
      const cached = cache.get(id);
      if (cached !== undefined) return cached === null ? undefined : { ...cached };
      return rows.read(
        () => db<ModelRow>('models').where({ id }).first(),
        (row) => {
          if (cache.size >= CACHE_LIMIT) cache.clear();
          cache.set(id, row ? { ...row } : null);
        },
      );
    },
    /** Every model, newest change first. */
    async all(): Promise<ModelRow[]> {
      return db<ModelRow>('models').select('*').orderBy([{ column: 'updated_at', order: 'desc' }, { column: 'id' }]);
    },
    /** The model `id` joined with its owner (or its absence), from memory after the first read; writes to `models` or `users` drop the cache. */
    async oneWithOwner(id: string): Promise<ModelWithOwnerRow | undefined> {
      const cached = withOwnerCache.get(id);
      if (cached !== undefined) return cached === null ? undefined : { ...cached };
      return withOwner.read(
        () => withOwners(db).where('models.id', id).first<ModelWithOwnerRow | undefined>(),
        (row) => {
          if (withOwnerCache.size >= CACHE_LIMIT) withOwnerCache.clear();
          withOwnerCache.set(id, row ? { ...row } : null);
        },
      );
    },
    /** Every model (or the one with `id`) joined with its owner, newest change first. */
    async allWithOwners(id?: string): Promise<ModelWithOwnerRow[]> {
      const query = withOwners(db)
        .select<ModelWithOwnerRow[]>()
        .orderBy([{ column: 'models.updated_at', order: 'desc' }, { column: 'models.id' }]);
      if (id !== undefined) query.where('models.id', id);
      return query;
    },
    /** Inserts a row; a taken id raises SQLite's UNIQUE violation. */
    async insert(row: ModelRow): Promise<ModelRow> {
      await writing(() => db<ModelRow>('models').insert(row));
      return (await db<ModelRow>('models').where({ id: row.id }).first()) as ModelRow;
    },
    async update(id: string, patch: Partial<Omit<ModelRow, 'id' | 'user_id' | 'created_at'>>): Promise<ModelRow | undefined> {
      await writing(() => db<ModelRow>('models').where({ id }).update(patch));
      return db<ModelRow>('models').where({ id }).first();
    },
    /** Flips is_active; undefined when the row is gone. */
    async toggle(id: string, now: number): Promise<ModelRow | undefined> {
      const changed = await writing(() =>
        db('models')
          .where({ id })
          .update({ is_active: db.raw('NOT is_active'), updated_at: now }),
      );
      if (changed === 0) return undefined;
      return db<ModelRow>('models').where({ id }).first();
    },
    /** Deletes a row; true when it existed. */
    async delete(id: string): Promise<boolean> {
      return (await writing(() => db('models').where({ id }).delete())) > 0;
    },
  };
}
export type ModelsRepo = ReturnType<typeof createModelsRepo>;
