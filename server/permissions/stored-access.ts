import type { AccessControl } from '../contracts/access';
import type { PermissionKey } from '../contracts/permissions';
import { writeJson } from '../platform/db/json';

/**
 * An access list as a shared resource keeps it (JSON text, or null for public): omitted is
 * private to the owner (`{}`); `null` (everyone reads) only for a caller holding `publicPermission`,
 * else private too.
 */
export async function storedAccess(allows: (key: PermissionKey) => Promise<boolean>, value: AccessControl | undefined, publicPermission: PermissionKey): Promise<string | null> {
  if (value === undefined) return writeJson({});
  if (value === null) return (await allows(publicPermission)) ? null : writeJson({});
  return writeJson(value);
}
