import { Router } from 'express';
import { authOf, requireUser } from '../session';
import { presentStoredFile } from './files.present';
import type { FilesService } from './files.service';
import { sendStoredFile } from './send-file';

/** Stored file metadata and download. Mounted at `/api/v1/files`. */
export function filesRoutes(files: FilesService): Router {
  const router = Router();

  router.get('/:id', requireUser, async (req, res) => {
    res.json(presentStoredFile(await files.requireReadable(authOf(req).user, String(req.params.id))));
  });

  router.get('/:id/content', requireUser, async (req, res) => {
    sendStoredFile(res, await files.requireReadable(authOf(req).user, String(req.params.id)), files);
  });

  return router;
}
