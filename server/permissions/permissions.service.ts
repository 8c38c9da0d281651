import type { Role } from '../contracts/auth';
import { DEFAULT_PERMISSIONS, grants, PartialPermissions, Permissions, type PermissionKey } from '../contracts/permissions';
import { defineSection, type ConfigService } from '../config';
import { readJson } from '../platform/db/json';
import { resolvePermissions } from './resolve';
import type { Principal } from './access';

/** The admin-editable system default permissions. */
export const DefaultPermissionsSection = defineSection<Permissions>('permissions.default', Permissions, DEFAULT_PERMISSIONS);

/** A group a user belongs to: its id and the partial permissions it grants, as stored (JSON text). */
export interface GroupGrant {
  id: string;
  permissions: string;
}

/** What permissions are computed from: the settings, and the groups a user belongs to. */
export interface PermissionsDeps {
  config: ConfigService;
  groupsOf(userId: string): Promise<GroupGrant[]>;
}

/** Effective permissions and principals of users. */
export function createPermissionsService(deps: PermissionsDeps) {
  /** What a user may do: the defaults combined with every group they belong to. */
  async function effective(user: { id: string; role: Role }): Promise<Permissions> {
    const defaults = await deps.config.get(DefaultPermissionsSection);
    if (user.role === 'admin') return resolvePermissions('admin', defaults, []);
    const grantsOfGroups = await deps.groupsOf(user.id);
    const parsed = grantsOfGroups.map((g) => {
      const result = PartialPermissions.safeParse(readJson<unknown>(g.permissions, {}));
      return result.success ? result.data : {};
    });
    return resolvePermissions(user.role, defaults, parsed);
  }

  return {
    async defaults(): Promise<Permissions> {
      return deps.config.get(DefaultPermissionsSection);
    },
    async setDefaults(value: Permissions): Promise<Permissions> {
      return deps.config.set(DefaultPermissionsSection, value);
    },
    effective,
    /** Whether a user holds one permission (admins hold all, without a lookup). */
    async allows(user: { id: string; role: Role }, key: PermissionKey): Promise<boolean> {
      return user.role === 'admin' || grants(await effective(user), key);
    },
    /** The caller as access checks see them (with group ids). */
    async principal(user: { id: string; role: Role }): Promise<Principal> {
      return { id: user.id, role: user.role, groupIds: (await deps.groupsOf(user.id)).map((g) => g.id) };
    },
  };
}
export type PermissionsService = ReturnType<typeof createPermissionsService>;
