import { ConnectionStatus } from '../contracts/connection-status';
import { route, type Routes } from '../platform/http/route';
import type { ModelCatalog } from './model-catalog';

/**
 * `GET /api/v1/connections/status`: which enabled connections did not answer the last model
 * listing, so the chat can say why models are missing. Admins also get the URL and the reason.
 */
export function connectionStatusRoutes(catalog: Pick<ModelCatalog, 'unreachable' | 'list'>): Routes {
  return [
    route({ method: 'get', path: '/', guard: 'user', summary: 'Which provider connections answer right now', response: ConnectionStatus }, async ({ user }) => {
      // Listing refreshes the state (or answers from the cache, as the model picker does).
      await catalog.list();
      const admin = user.role === 'admin';
      return { unreachable: catalog.unreachable().map((p) => ({ kind: p.kind, index: p.index, ...(admin ? { url: p.url, reason: p.reason } : {}) })) };
    }),
  ];
}
