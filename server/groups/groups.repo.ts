import type { Db } from '../platform/db/knex';

/** A row of `groups`. `permissions` is JSON text. */
export interface GroupRow {
  id: string;
  name: string;
  description: string;
  permissions: string;
  created_by: string | null;
  created_at: number;
  updated_at: number;
}

/** A group row with its member ids. */
export interface GroupWithMembers extends GroupRow {
  userIds: string[];
}

/** knex access to `groups` and `group_members`. */
export function createGroupsRepo(db: Db) {
  async function withMembers(rows: GroupRow[]): Promise<GroupWithMembers[]> {
    if (rows.length === 0) return [];
    const members = await db('group_members')
      .whereIn(
        'group_id',
        rows.map((r) => r.id),
      )
      .orderBy('added_at', 'asc')
      .orderBy('user_id', 'asc')
      .select<{ group_id: string; user_id: string }[]>('group_id', 'user_id');
    const byGroup = new Map<string, string[]>();
    for (const m of members) byGroup.set(m.group_id, [...(byGroup.get(m.group_id) ?? []), m.user_id]);
    return rows.map((r) => ({ ...r, userIds: byGroup.get(r.id) ?? [] }));
  }

  return {
    /** Every group, by name. */
    async all(): Promise<GroupWithMembers[]> {
      return withMembers(await db<GroupRow>('groups').orderByRaw('lower(name) asc').orderBy('id', 'asc'));
    },
    /** The groups `userId` belongs to, by name. */
    async ofUser(userId: string): Promise<GroupWithMembers[]> {
      const rows = await db<GroupRow>('groups')
        .whereIn('id', db('group_members').where({ user_id: userId }).select('group_id'))
        .orderByRaw('lower(name) asc')
        .orderBy('id', 'asc');
      return withMembers(rows);
    },
    async findById(id: string): Promise<GroupWithMembers | undefined> {
      const row = await db<GroupRow>('groups').where({ id }).first();
      return row ? (await withMembers([row]))[0] : undefined;
    },
    async insert(row: GroupRow): Promise<void> {
      await db<GroupRow>('groups').insert(row);
    },
    /**
     * Applies a change to a group in one transaction: the field patch, then (when given) the
     * member list replaced, member ids added (existing kept) or removed.
     */
    async change(
      id: string,
      patch: Partial<Omit<GroupRow, 'id' | 'created_at' | 'created_by'>>,
      members: { replace?: readonly string[]; add?: readonly string[]; remove?: readonly string[] },
      now: number,
    ): Promise<void> {
      await db.transaction(async (trx) => {
        await trx('groups').where({ id }).update({ ...patch, updated_at: now });
        if (members.replace) await trx('group_members').where({ group_id: id }).del();
        const add = members.replace ?? members.add ?? [];
        if (add.length > 0) {
          const rows = [...new Set(add)].map((user_id) => ({ group_id: id, user_id, added_at: now }));
          for (let i = 0; i < rows.length; i += 200) {
            await trx('group_members').insert(rows.slice(i, i + 200)).onConflict(['group_id', 'user_id']).ignore();
          }
        }
        if (members.remove && members.remove.length > 0) {
          await trx('group_members').where({ group_id: id }).whereIn('user_id', [...members.remove]).del();
        }
      });
    },
    /** Deletes a group (memberships go by cascade). False when it did not exist. */
    async delete(id: string): Promise<boolean> {
      return (await db('groups').where({ id }).del()) > 0;
    },
    /** Which of these ids belong to existing users. */
    async existingUserIds(ids: readonly string[]): Promise<Set<string>> {
      const found = new Set<string>();
      const unique = [...new Set(ids)];
      for (let i = 0; i < unique.length; i += 500) {
        const rows = await db('users').whereIn('id', unique.slice(i, i + 500)).select<{ id: string }[]>('id');
        for (const r of rows) found.add(r.id);
      }
      return found;
    },
  };
}
export type GroupsRepo = ReturnType<typeof createGroupsRepo>;
