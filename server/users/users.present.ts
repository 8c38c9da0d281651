import { isAllowedProfileImageUrl } from '../contracts/profile-image';
import { DEFAULT_PROFILE_IMAGE_URL, type User, type UserListItem } from '../contracts/users';
import { readJson } from '../platform/db/json';
import type { UserRow } from './users.repo';

/** A stored picture URL written before URLs were checked is shown as the default picture. */
export function safeImageUrl(url: string): string {
  return isAllowedProfileImageUrl(url) ? url : DEFAULT_PROFILE_IMAGE_URL;
}

/** The wire shape of a user. */
export function presentUser(row: UserRow): User {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    profile_image_url: safeImageUrl(row.profile_image_url),
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
    profile_image_url: safeImageUrl(row.profile_image_url),
    created_at: row.created_at,
    last_active_at: row.last_active_at,
  };
}
