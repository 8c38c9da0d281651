import type { Knex } from 'knex';
import type { Db } from '../platform/db/knex';
import type { Role } from '../contracts/auth';
import type { UserOrderBy } from '../contracts/users';
import { createTableCache, tableFeed } from '../platform/db/table-cache';

/** A row of `users`. JSON columns are text. */
export interface UserRow {
  id: string;
  name: string;
  email: string;
  role: Role;
  is_primary_admin: number | boolean;
  profile_image_url: string;
  info: string;
  settings: string;
  created_at: number;
  updated_at: number;
  last_active_at: number;
}

/** A database transaction, handed to user-deletion hooks so their work commits or rolls back with the deletion. */
export type DbTransaction = Knex.Transaction;

/** Filters, order and window of a user list. */
export interface UserPageQuery {
  query?: string;
  groupId?: string;
  role?: Role;
  orderBy: UserOrderBy;
  direction: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/** `%` and `_` are LIKE wildcards; escape them so a search matches them literally. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function filtered(db: Db, { query, groupId, role }: Pick<UserPageQuery, 'query' | 'groupId' | 'role'>): Knex.QueryBuilder {
  const q = db('users');
  if (role !== undefined) q.where('users.role', role);
  if (groupId !== undefined) q.whereIn('users.id', db('group_members').where({ group_id: groupId }).select('user_id'));
  const text = query?.trim();
  if (text) {
    const pattern = likePattern(text);
    q.where((w) => w.whereRaw("lower(users.name) LIKE lower(?) ESCAPE '\\'", [pattern]).orWhereRaw("lower(users.email) LIKE lower(?) ESCAPE '\\'", [pattern]));
  }
  return q;
}

export type NewUserRow = Omit<UserRow, 'settings' | 'info'> & { info?: string; settings?: string };

/** Rows kept by id at most; past this the cache starts over. */
const CACHE_LIMIT = 5_000;

/**
 * knex access to `users` (and the password rows in `auths`). `findById` (read on every
 * authenticated request) is served from memory; every write below drops the cached row, so a
 * deleted or demoted user loses access at once; any other write to `users` (SQLite's update
 * hook) drops the whole cache.
 */
export function createUsersRepo(db: Db) {
  const cache = new Map<string, UserRow>();
  // Any write to `users` that bypasses this repo (or a cascade) drops the whole cache.
  const kept = createTableCache(() => cache.clear(), tableFeed(db, 'users'));
  const forget = (id: string) => () => cache.delete(id);

  return {
    async findById(id: string): Promise<UserRow | undefined> {
      const cached = cache.get(id);
      if (cached) return { ...cached };
      return kept.read(
        () => db<UserRow>('users').where({ id }).first(),
        (row) => {
          if (!row) return;
          if (cache.size >= CACHE_LIMIT) cache.clear();
          cache.set(id, { ...row });
        },
      );
    },
    async findByEmail(email: string): Promise<UserRow | undefined> {
      return db<UserRow>('users').where({ email: email.toLowerCase() }).first();
    },
    async count(): Promise<number> {
      const row = await db('users').count<{ n: number }[]>({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },
    async countByRole(role: Role): Promise<number> {
      const row = await db('users').where({ role }).count<{ n: number }[]>({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },
    async idsByRole(role: Role): Promise<string[]> {
      return (await db<UserRow>('users').where({ role }).select('id')).map((row) => row.id);
    },
    /**
     * Inserts a user and their password hash in one transaction. The first user ever becomes
     * the primary admin: the check and the insert share the transaction, so two racing
     * sign-ups cannot both become it.
     */
    async createWithPassword(
      row: Omit<NewUserRow, 'is_primary_admin' | 'role'> & { role: Role },
      passwordHash: string | null,
      options: { firstUserIsAdmin: boolean },
    ): Promise<UserRow> {
      kept.invalidate(forget(row.id));
      return db.transaction(async (trx) => {
        const existing = await trx('users').count<{ n: number }[]>({ n: '*' }).first();
        const isFirst = Number(existing?.n ?? 0) === 0;
        const role: Role = isFirst && options.firstUserIsAdmin ? 'admin' : row.role;
        const insert = { ...row, role, is_primary_admin: isFirst && options.firstUserIsAdmin };
        await trx('users').insert(insert);
        await trx('auths').insert({ user_id: row.id, password_hash: passwordHash, updated_at: row.created_at });
        return (await trx<UserRow>('users').where({ id: row.id }).first()) as UserRow;
      });
    },
    async update(id: string, patch: Partial<Omit<UserRow, 'id'>>): Promise<UserRow | undefined> {
      await kept.write(async () => {
        if (Object.keys(patch).length > 0) await db<UserRow>('users').where({ id }).update(patch);
      }, forget(id));
      return db<UserRow>('users').where({ id }).first();
    },
    /** One page of users matching the filters, and the total number of matches. */
    async page(p: UserPageQuery): Promise<{ rows: UserRow[]; count: number }> {
      const total = await filtered(db, p).count<{ n: number }[]>({ n: '*' }).first();
      const column = `users.${p.orderBy}`;
      const rows = await filtered(db, p)
        .select<UserRow[]>('users.*')
        .orderByRaw(p.orderBy === 'name' || p.orderBy === 'email' ? `lower(${column}) ${p.direction}` : `${column} ${p.direction}`)
        .orderBy('users.id', 'asc')
        .limit(p.limit)
        .offset(p.offset);
      return { rows, count: Number(total?.n ?? 0) };
    },
    /** Every user, oldest first. */
    async all(): Promise<UserRow[]> {
      return db<UserRow>('users').orderBy('created_at', 'asc').orderBy('id', 'asc');
    },
    /**
     * Verified users, by name. `emails: 'substring'` (admins) matches names and emails containing
     * `query`; `emails: 'whole'` matches names containing it and only the whole address, so a
     * search cannot be used to discover addresses a letter at a time.
     */
    async search(query: string | undefined, limit: number, emails: 'substring' | 'whole'): Promise<Array<Pick<UserRow, 'id' | 'name'>>> {
      const text = query?.trim();
      const q =
        emails === 'substring' || !text
          ? filtered(db, { query })
          : db('users').where((w) => w.whereRaw("lower(users.name) LIKE lower(?) ESCAPE '\\'", [likePattern(text)]).orWhere('users.email', text.toLowerCase()));
      return q
        .whereNot('users.role', 'pending')
        .select<Array<Pick<UserRow, 'id' | 'name'>>>('users.id', 'users.name')
        .orderByRaw('lower(users.name) asc')
        .orderBy('users.id', 'asc')
        .limit(limit);
    },
    /** Names and images of the users with these ids. */
    async byIds(ids: readonly string[]): Promise<UserRow[]> {
      if (ids.length === 0) return [];
      return db<UserRow>('users').whereIn('id', [...ids]);
    },
    /**
     * Deletes a user in one transaction: `before` runs first inside it (other domains' cleanup),
     * then the row goes and ON DELETE CASCADE removes every row that references it.
     * Returns false when the user did not exist.
     */
    async deleteInTransaction(id: string, before: (trx: DbTransaction) => Promise<void>): Promise<boolean> {
      return kept.write(
        () =>
          db.transaction(async (trx) => {
            const exists = await trx('users').where({ id }).first('id');
            if (!exists) return false;
            await before(trx);
            await trx('users').where({ id }).del();
            return true;
          }),
        forget(id),
      );
    },
    async touchActive(id: string, now: number): Promise<void> {
      await db('users').where({ id }).update({ last_active_at: now });
    },
    async passwordHash(userId: string): Promise<string | null> {
      const row = await db<{ user_id: string; password_hash: string | null }>('auths').where({ user_id: userId }).first();
      return row?.password_hash ?? null;
    },
    async setPasswordHash(userId: string, hash: string, now: number): Promise<void> {
      await db('auths')
        .insert({ user_id: userId, password_hash: hash, updated_at: now })
        .onConflict('user_id')
        .merge(['password_hash', 'updated_at']);
    },
  };
}
export type UsersRepo = ReturnType<typeof createUsersRepo>;
