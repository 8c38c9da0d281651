import type { AccessControl } from '../contracts/access';
import type { Role } from '../contracts/auth';

/** The caller as access checks see them. */
export interface Principal {
  id: string;
  role: Role;
  groupIds: readonly string[];
}

/** A resource that has an owner and an access-control list. */
export interface OwnedResource {
  user_id: string;
  access_control: AccessControl | undefined;
}

function listed(list: { user_ids?: string[]; group_ids?: string[] } | undefined, who: Principal): boolean {
  if (!list) return false;
  return (list.user_ids ?? []).includes(who.id) || (list.group_ids ?? []).some((g) => who.groupIds.includes(g));
}

/**
 * The one access check for models, knowledge bases and tools.
 * - admins and the owner may do anything;
 * - `write` needs a listing in `access_control.write`;
 * - `read` is open when `access_control` is null, else needs a listing in `read` or `write`.
 */
export function canAccess(who: Principal, resource: OwnedResource, mode: 'read' | 'write'): boolean {
  if (who.role === 'admin' || resource.user_id === who.id) return true;
  const acl = resource.access_control;
  if (mode === 'write') return acl ? listed(acl.write, who) : false;
  if (acl === null || acl === undefined) return true;
  return listed(acl.read, who) || listed(acl.write, who);
}
