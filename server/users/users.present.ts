import type { User, UserListItem } from '../contracts/users';
import { readJson } from '../platform/db/json';
import type { UserRow } from './users.repo';

/** The wire shape of a user. */
export function presentUser(row: UserRow): User {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    profile_image_url: row.profile_image_url,
    info: readJson<Record<string, unknown>>(row.info, {}),
    created_at: row.created_at,
    last_active_at: row.last_active_at,
  };
}

/** True when the row is the primary admin (the first account). */
export function isPrimaryAdmin(row: Pick<UserRow, 'is_primary_admin'>): boolean {
  return row.is_primary_admin === true || row.is_primary_admin === 1;
}

/** One row of the admin user list. */
export function presentListItem(row: UserRow): UserListItem {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    profile_image_url: row.profile_image_url,
    created_at: row.created_at,
    last_active_at: row.last_active_at,
  };
}
