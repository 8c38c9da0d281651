import { z } from 'zod';
import { CreateGroupRequest, Group, GroupUserIdsRequest, UpdateGroupRequest } from '../contracts/groups';
import { route, type Routes } from '../platform/http/route';
import type { GroupsService } from './groups.service';

/** Section 4.3: groups. Mounted at `/api/v1/groups`. */
export function groupsRoutes(groups: GroupsService): Routes {
  return [
    route({ method: 'get', path: '/', guard: 'user', summary: 'Groups (admins: all; others: their own)', response: z.array(Group) }, ({ user }) => groups.list(user)),
    route({ method: 'post', path: '/create', guard: 'admin', body: CreateGroupRequest, summary: 'Create a group', response: Group }, ({ user, body }) => groups.create(user.id, body)),
    route({ method: 'get', path: '/id/:id', guard: 'admin', summary: 'A group', response: Group }, ({ params }) => groups.get(params.id)),
    route({ method: 'post', path: '/id/:id/update', guard: 'admin', body: UpdateGroupRequest, summary: 'Update a group and replace its members', response: Group }, ({ params, body }) =>
      groups.update(params.id, body),
    ),
    route({ method: 'post', path: '/id/:id/users/add', guard: 'admin', body: GroupUserIdsRequest, summary: 'Add members to a group', response: Group }, ({ params, body }) => groups.addUsers(params.id, body)),
    route({ method: 'post', path: '/id/:id/users/remove', guard: 'admin', body: GroupUserIdsRequest, summary: 'Remove members from a group', response: Group }, ({ params, body }) =>
      groups.removeUsers(params.id, body),
    ),
    route({ method: 'delete', path: '/id/:id/delete', guard: 'admin', summary: 'Delete a group', response: z.boolean() }, async ({ params }) => {
      await groups.delete(params.id);
      return true;
    }),
  ];
}
