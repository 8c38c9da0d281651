import type { Db } from '../platform/db/knex';

/** A group's id and the partial permissions it grants, as stored. */
export interface GroupGrantRow {
  id: string;
  permissions: string;
}

/** Read access to group memberships, used by permission resolution and access checks (as `groupsOf`). */
export function createMembershipsRepo(db: Db) {
  return {
    async grantsOf(userId: string): Promise<GroupGrantRow[]> {
      return db('groups')
        .join('group_members', 'groups.id', 'group_members.group_id')
        .where('group_members.user_id', userId)
        .select<GroupGrantRow[]>('groups.id', 'groups.permissions');
    },
  };
}
export type MembershipsRepo = ReturnType<typeof createMembershipsRepo>;
