import { Router } from 'express';
import { authOf, requireAdmin, requireUser } from '../session';
import { CreateGroupRequest, GroupUserIdsRequest, UpdateGroupRequest } from '../contracts/groups';
import { validateBody } from '../platform/http/validate';
import type { GroupsService } from './groups.service';

/** Section 4.3: groups. Mounted at `/api/v1/groups`. */
export function groupsRoutes(groups: GroupsService): Router {
  const router = Router();

  router.get('/', requireUser, async (req, res) => {
    res.json(await groups.list(authOf(req).user));
  });

  router.post('/create', requireAdmin, validateBody(CreateGroupRequest), async (req, res) => {
    res.json(await groups.create(authOf(req).user.id, req.body as CreateGroupRequest));
  });

  router.get('/id/:id', requireAdmin, async (req, res) => {
    res.json(await groups.get(String(req.params.id)));
  });

  router.post('/id/:id/update', requireAdmin, validateBody(UpdateGroupRequest), async (req, res) => {
    res.json(await groups.update(String(req.params.id), req.body as UpdateGroupRequest));
  });

  router.post('/id/:id/users/add', requireAdmin, validateBody(GroupUserIdsRequest), async (req, res) => {
    res.json(await groups.addUsers(String(req.params.id), req.body as GroupUserIdsRequest));
  });

  router.post('/id/:id/users/remove', requireAdmin, validateBody(GroupUserIdsRequest), async (req, res) => {
    res.json(await groups.removeUsers(String(req.params.id), req.body as GroupUserIdsRequest));
  });

  router.delete('/id/:id/delete', requireAdmin, async (req, res) => {
    await groups.delete(String(req.params.id));
    res.json(true);
  });

  return router;
}
