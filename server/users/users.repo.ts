import type { Db } from '../platform/db/knex';
import type { Role } from '../contracts/auth';

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

export type NewUserRow = Omit<UserRow, 'settings' | 'info'> & { info?: string; settings?: string };

/** knex access to `users` (and the password rows in `auths`). */
export function createUsersRepo(db: Db) {
  return {
    async findById(id: string): Promise<UserRow | undefined> {
      return db<UserRow>('users').where({ id }).first();
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
      if (Object.keys(patch).length > 0) await db<UserRow>('users').where({ id }).update(patch);
      return db<UserRow>('users').where({ id }).first();
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
