import type { Group } from '../contracts/groups';
import { PartialPermissions } from '../contracts/permissions';
import { readJson } from '../platform/db/json';
import type { GroupWithMembers } from './groups.repo';

/** The wire shape of a group. */
export function presentGroup(row: GroupWithMembers): Group {
  const permissions = PartialPermissions.safeParse(readJson<unknown>(row.permissions, {}));
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    permissions: permissions.success ? permissions.data : {},
    user_ids: row.userIds,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
