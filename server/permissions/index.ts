export { canAccess, type Principal, type OwnedResource } from './access';
export { resolvePermissions, allPermissions } from './resolve';
export { createPermissionsService, DefaultPermissionsSection, type PermissionsService } from './permissions.service';
export { storedAccess } from './stored-access';
