import { z } from 'zod';
import { Group } from '../contracts/groups';
import { Permissions } from '../contracts/permissions';
import {
  ActiveStatus,
  ActiveUsers,
  AdminUserUpdate,
  ProfileImagePathQuery,
  ProfileImageUpload,
  PublicUser,
  User,
  UserInfo,
  UserListQuery,
  UserListResponse,
  UserSearchQuery,
  UserSearchResponse,
  UserSettings,
} from '../contracts/users';
import { payloadTooLarge } from '../platform/http/errors';
import { route, type Routes } from '../platform/http/route';
import { readSingleUpload } from './read-upload';
import type { UsersService } from './users.service';

/**
 * Section 4.2: users. Mounted at `/api/v1/users`. The fixed paths come before `/:user_id`,
 * so `/all`, `/search`, `/groups`… are never read as a user id.
 */
export function usersRoutes(users: UsersService, options: { maxImageBytes: number }): Routes {
  return [
    route({ method: 'get', path: '/', guard: 'admin', query: UserListQuery, summary: 'Users, paged and filtered', response: UserListResponse }, ({ query }) => users.list(query)),
    route({ method: 'get', path: '/all', guard: 'admin', summary: 'All users', response: UserListResponse }, () => users.all()),
    route({ method: 'get', path: '/search', guard: 'user', query: UserSearchQuery, summary: 'Find users by name or email (for sharing pickers)', response: UserSearchResponse }, ({ user, query }) =>
      users.search(user, query.query),
    ),
    route({ method: 'get', path: '/active', guard: 'user', summary: 'Ids of users connected right now', response: ActiveUsers }, async () => users.activeUserIds()),

    route({ method: 'get', path: '/permissions', guard: 'user', summary: 'The caller’s effective permissions', response: Permissions }, ({ user }) => users.effectivePermissions(user)),
    route({ method: 'get', path: '/default/permissions', guard: 'admin', summary: 'The default permissions of every user', response: Permissions }, () => users.defaultPermissions()),
    route({ method: 'post', path: '/default/permissions', guard: 'admin', body: Permissions, summary: 'Replace the default permissions', response: Permissions }, ({ body }) =>
      users.setDefaultPermissions(body),
    ),

    route({ method: 'get', path: '/user/settings', guard: 'user', summary: 'The caller’s UI settings', response: UserSettings }, ({ user }) => users.settings(user.id)),
    route({ method: 'post', path: '/user/settings/update', guard: 'user', body: UserSettings, summary: 'Replace the caller’s UI settings', response: UserSettings }, ({ user, body }) =>
      users.replaceSettings(user.id, body),
    ),
    route({ method: 'get', path: '/user/info', guard: 'user', summary: 'The caller’s info dictionary', response: UserInfo }, ({ user }) => users.info(user.id)),
    route({ method: 'post', path: '/user/info/update', guard: 'user', body: UserInfo, summary: 'Merge keys into the caller’s info dictionary', response: UserInfo }, ({ user, body }) =>
      users.mergeInfo(user.id, body),
    ),

    route(
      { method: 'post', path: '/user/profile/image', guard: 'user', consumes: 'multipart', summary: 'Upload a profile picture', response: ProfileImageUpload },
      async ({ req, res, user }) => {
        const declared = Number(req.headers['content-length'] ?? 0);
        if (declared > options.maxImageBytes * 2) {
          // Far beyond the limit: answer now rather than read it all.
          res.set('Connection', 'close');
          throw payloadTooLarge(`The file is larger than ${Math.round(options.maxImageBytes / 1024 / 1024)} MB`, 'FILE_TOO_LARGE');
        }
        const file = await readSingleUpload(req, 'file', options.maxImageBytes);
        return users.uploadProfileImage(user.id, file);
      },
    ),
    route(
      { method: 'get', path: '/profile/image', guard: 'user', query: ProfileImagePathQuery, invalid: 400, produces: 'binary', summary: 'A stored profile picture' },
      async ({ res, query }) => {
        const image = await users.profileImage(query.path);
        res.sendFile(image.absolute, { headers: { 'Content-Type': image.mime, 'Cache-Control': 'private, max-age=3600' } });
      },
    ),
    route(
      { method: 'delete', path: '/profile/image', guard: 'user', query: ProfileImagePathQuery, invalid: 400, summary: 'Delete a stored profile picture', response: z.object({ success: z.boolean() }) },
      ({ user, query }) => users.deleteProfileImage(user, query.path),
    ),

    route({ method: 'get', path: '/groups', guard: 'user', summary: 'Groups the caller belongs to', response: z.array(Group) }, ({ user }) => users.groupsOf(user.id)),

    route({ method: 'get', path: '/:user_id', guard: 'user', summary: 'A user’s public card (name, picture, active)', response: PublicUser }, ({ params }) => users.publicProfile(params.user_id)),
    route({ method: 'get', path: '/:user_id/active', guard: 'user', summary: 'Whether a user is connected', response: ActiveStatus }, ({ params }) => users.activeStatus(params.user_id)),
    route({ method: 'post', path: '/:user_id/update', guard: 'admin', body: AdminUserUpdate, summary: 'Update a user (admin)', response: User }, ({ user, params, body }) =>
      users.adminUpdate(user, params.user_id, body),
    ),
    route({ method: 'delete', path: '/:user_id', guard: 'admin', summary: 'Delete a user (admin)', response: z.boolean() }, async ({ user, params }) => {
      await users.delete(user, params.user_id);
      return true;
    }),
  ];
}

/** `GET /user.png`: the default avatar, served without authentication. */
export function defaultAvatarRoutes(png: () => Buffer): Routes {
  return [
    route({ method: 'get', path: '/user.png', guard: 'public', produces: 'png', summary: 'The default profile picture' }, async ({ res }) => {
      res.set('Cache-Control', 'public, max-age=86400').type('png').send(png());
    }),
  ];
}

/** `GET /static/favicon.png`: Parley's icon, served without authentication (Open WebUI clients' default model picture). */
export function appIconRoutes(png: () => Promise<Buffer>): Routes {
  return [
    route({ method: 'get', path: '/static/favicon.png', guard: 'public', produces: 'png', summary: 'Parley’s icon (the default model picture of Open WebUI clients)' }, async ({ res }) => {
      res.set('Cache-Control', 'public, max-age=86400').type('png').send(await png());
    }),
  ];
}
