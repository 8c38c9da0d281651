import { z } from 'zod';
import { BackupInfo } from '../contracts/backups';
import { route, type Routes } from '../platform/http/route';
import type { BackupService } from './backup.service';

/**
 * Admin backups: create, list, download, delete. Restores run offline (`npm run restore`).
 * Mounted at `/api/v1/backups` behind the admin guard (for the paths below and any other).
 */
export function backupRoutes(backups: BackupService): Routes {
  return [
    route({ method: 'get', path: '/', guard: 'admin', summary: 'Backups of the data dir', response: z.array(BackupInfo) }, async () => backups.list()),
    route({ method: 'post', path: '/', guard: 'admin', summary: 'Make a backup now', response: BackupInfo }, () => backups.create()),
    route({ method: 'get', path: '/:name/download', guard: 'admin', produces: 'zip', summary: 'Download a backup' }, async ({ res, params }) => {
      res.download(backups.pathOf(params.name), params.name);
    }),
    route({ method: 'delete', path: '/:name', guard: 'admin', summary: 'Delete a backup', response: z.boolean() }, async ({ params }) => {
      backups.remove(params.name);
      return true;
    }),
  ];
}
