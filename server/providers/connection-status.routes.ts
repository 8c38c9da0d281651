import { Router } from 'express';
import { authOf, requireUser } from '../session';
import type { ConnectionStatus } from '../contracts/connection-status';
import type { ModelCatalog } from './model-catalog';

/**
 * `GET /api/v1/connections/status`: which enabled connections did not answer the last model
 * listing, so the chat can say why models are missing. Admins also get the URL and the reason.
 */
export function connectionStatusRoutes(catalog: Pick<ModelCatalog, 'unreachable' | 'list'>): Router {
  const router = Router();
  router.get('/', requireUser, async (req, res) => {
    // Listing refreshes the state (or answers from the cache, as the model picker does).
    await catalog.list();
    const admin = authOf(req).user.role === 'admin';
    const body: ConnectionStatus = {
      unreachable: catalog.unreachable().map((p) => ({ kind: p.kind, index: p.index, ...(admin ? { url: p.url, reason: p.reason } : {}) })),
    };
    res.json(body);
  });
  return router;
}
