export { createGroupsRepo, type GroupsRepo, type GroupRow } from './groups.repo';
export { createGroupsService, type GroupsService } from './groups.service';
export { groupsRoutes } from './groups.routes';
export { presentGroup } from './groups.present';
export { createMembershipsRepo, type MembershipsRepo } from './memberships.repo';
