import { Router } from 'express';
import { authOf, requireAdmin, requireUser } from '../session';
import { Permissions } from '../contracts/permissions';
import {
  AdminUserUpdate,
  ProfileImagePathQuery,
  UserInfo,
  UserListQuery,
  UserSearchQuery,
  UserSettings,
} from '../contracts/users';
import { payloadTooLarge } from '../platform/http/errors';
import { validateBody, validateQuery } from '../platform/http/validate';
import { readSingleUpload } from './read-upload';
import type { UsersService } from './users.service';

/**
 * Section 4.2: users. Mounted at `/api/v1/users`. The fixed paths come before `/:user_id`,
 * so `/all`, `/search`, `/groups`… are never read as a user id.
 */
export function usersRoutes(users: UsersService, options: { maxImageBytes: number }): Router {
  const router = Router();

  router.get('/', requireAdmin, validateQuery(UserListQuery), async (_req, res) => {
    res.json(await users.list(res.locals.query as UserListQuery));
  });
  router.get('/all', requireAdmin, async (_req, res) => {
    res.json(await users.all());
  });
  router.get('/search', requireUser, validateQuery(UserSearchQuery), async (_req, res) => {
    res.json(await users.search((res.locals.query as { query?: string }).query));
  });
  router.get('/active', requireUser, (_req, res) => {
    res.json(users.activeUserIds());
  });

  router.get('/permissions', requireUser, async (req, res) => {
    res.json(await users.effectivePermissions(authOf(req).user));
  });
  router.get('/default/permissions', requireAdmin, async (_req, res) => {
    res.json(await users.defaultPermissions());
  });
  router.post('/default/permissions', requireAdmin, validateBody(Permissions), async (req, res) => {
    res.json(await users.setDefaultPermissions(req.body as Permissions));
  });

  router.get('/user/settings', requireUser, async (req, res) => {
    res.json(await users.settings(authOf(req).user.id));
  });
  router.post('/user/settings/update', requireUser, validateBody(UserSettings), async (req, res) => {
    res.json(await users.replaceSettings(authOf(req).user.id, req.body as UserSettings));
  });
  router.get('/user/info', requireUser, async (req, res) => {
    res.json(await users.info(authOf(req).user.id));
  });
  router.post('/user/info/update', requireUser, validateBody(UserInfo), async (req, res) => {
    res.json(await users.mergeInfo(authOf(req).user.id, req.body as UserInfo));
  });

  router.post('/user/profile/image', requireUser, async (req, res) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > options.maxImageBytes * 2) {
      // Far beyond the limit: answer now rather than read it all.
      res.set('Connection', 'close');
      throw payloadTooLarge(`The file is larger than ${Math.round(options.maxImageBytes / 1024 / 1024)} MB`, 'FILE_TOO_LARGE');
    }
    const file = await readSingleUpload(req, 'file', options.maxImageBytes);
    res.json(await users.uploadProfileImage(authOf(req).user.id, file));
  });
  router.get('/profile/image', requireUser, validateQuery(ProfileImagePathQuery, { status: 400 }), async (_req, res) => {
    const image = await users.profileImage((res.locals.query as ProfileImagePathQuery).path);
    res.sendFile(image.absolute, { headers: { 'Content-Type': image.mime, 'Cache-Control': 'private, max-age=3600' } });
  });
  router.delete('/profile/image', requireUser, validateQuery(ProfileImagePathQuery, { status: 400 }), async (req, res) => {
    res.json(await users.deleteProfileImage(authOf(req).user, (res.locals.query as ProfileImagePathQuery).path));
  });

  router.get('/groups', requireUser, async (req, res) => {
    res.json(await users.groupsOf(authOf(req).user.id));
  });

  router.get('/:user_id', requireUser, async (req, res) => {
    res.json(await users.publicProfile(String(req.params.user_id)));
  });
  router.get('/:user_id/active', requireUser, async (req, res) => {
    res.json(await users.activeStatus(String(req.params.user_id)));
  });
  router.post('/:user_id/update', requireAdmin, validateBody(AdminUserUpdate), async (req, res) => {
    res.json(await users.adminUpdate(authOf(req).user, String(req.params.user_id), req.body as AdminUserUpdate));
  });
  router.delete('/:user_id', requireAdmin, async (req, res) => {
    await users.delete(authOf(req).user, String(req.params.user_id));
    res.json(true);
  });

  return router;
}

/** `GET /user.png`: the default avatar, served without authentication. */
export function defaultAvatarRoutes(png: () => Buffer): Router {
  const router = Router();
  router.get('/user.png', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=86400').type('png').send(png());
  });
  return router;
}
