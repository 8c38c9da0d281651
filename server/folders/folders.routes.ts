import { Router, type RequestHandler } from 'express';
import { authOf, requireUser } from '../session';
import { CreateFolderRequest, UpdateFolderRequest } from '../contracts/folders';
import { validateBody } from '../platform/http/validate';
import type { FoldersService } from './folders.service';

/** Chat folders, on Open WebUI's paths. Mounted at `/api/v1/folders`. */
export function foldersRoutes(folders: FoldersService): Router {
  const router = Router();
  const id = (req: { params: Record<string, unknown> }) => String(req.params.id);
  const ownFolder: RequestHandler = async (req, _res, next) => {
    await folders.get(authOf(req).user.id, id(req));
    next();
  };

  router.get('/', requireUser, async (req, res) => {
    res.json(await folders.list(authOf(req).user.id));
  });
  router.post('/', requireUser, validateBody(CreateFolderRequest), async (req, res) => {
    res.json(await folders.create(authOf(req).user.id, req.body as CreateFolderRequest));
  });
  router.get('/:id', requireUser, async (req, res) => {
    res.json(await folders.get(authOf(req).user.id, id(req)));
  });
  router.post('/:id/update', requireUser, ownFolder, validateBody(UpdateFolderRequest), async (req, res) => {
    res.json(await folders.update(authOf(req).user.id, id(req), req.body as UpdateFolderRequest));
  });
  router.delete('/:id', requireUser, async (req, res) => {
    await folders.delete(authOf(req).user.id, id(req));
    res.json(true);
  });
  return router;
}
