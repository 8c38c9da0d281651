import { Router } from 'express';
import { requireAdmin } from '../session';
import type { BackupService } from './backup.service';

/** Admin backups: create, list, download, delete. Restores run offline (`npm run restore`). */
export function backupRoutes(backups: BackupService): Router {
  const router = Router();
  router.use(requireAdmin);

  router.get('/', (_req, res) => {
    res.json(backups.list());
  });

  router.post('/', async (_req, res) => {
    res.json(await backups.create());
  });

  router.get('/:name/download', (req, res) => {
    const file = backups.pathOf(req.params.name);
    res.download(file, req.params.name);
  });

  router.delete('/:name', (req, res) => {
    backups.remove(req.params.name);
    res.json(true);
  });

  return router;
}
