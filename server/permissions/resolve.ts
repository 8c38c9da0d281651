import { DEFAULT_PERMISSIONS, type PartialPermissions, type Permissions } from '../contracts/permissions';
import type { Role } from '../contracts/auth';

type Area = keyof Permissions;

/** Every permission granted: what admins have. */
export function allPermissions(): Permissions {
  return mapLeaves(DEFAULT_PERMISSIONS, () => true);
}

/**
 * The effective permissions of a user: admins have all; everyone else has a permission when
 * the system default grants it or any of their groups does.
 */
export function resolvePermissions(role: Role, defaults: Permissions, groupGrants: PartialPermissions[]): Permissions {
  if (role === 'admin') return allPermissions();
  return mapLeaves(defaults, (area, key, granted) =>
    granted || groupGrants.some((grant) => (grant[area] as Record<string, boolean> | undefined)?.[key] === true),
  );
}

function mapLeaves(base: Permissions, pick: (area: Area, key: string, value: boolean) => boolean): Permissions {
  const out = {} as Record<Area, Record<string, boolean>>;
  for (const area of Object.keys(base) as Area[]) {
    out[area] = {};
    for (const [key, value] of Object.entries(base[area])) out[area][key] = pick(area, key, value);
  }
  return out as Permissions;
}
