import { Router } from 'express';
import { requireAdmin } from '../auth';
import { OfflineConfigUpdate } from '../contracts/offline';
import { validateBody } from '../platform/http/validate';
import type { OfflineMode } from './offline-mode';

/** Admin "Offline" switch. Mounted at `/api/v1/configs/offline`. */
export function offlineRoutes(offline: OfflineMode): Router {
  const router = Router();
  router.get('/', requireAdmin, async (_req, res) => {
    res.json(await offline.status());
  });
  router.post('/', requireAdmin, validateBody(OfflineConfigUpdate, { status: 400 }), async (req, res) => {
    res.json(await offline.update((req.body as OfflineConfigUpdate).enabled));
  });
  return router;
}
