import { Router, type RequestHandler } from 'express';
import { authOf, requireAdmin, requireUser } from '../session';
import type { SessionUser } from '../session';
import { EmbeddingConfigUpdate, QueryCollectionRequest, RetrievalConfigUpdate, type QueryCollectionResponse } from '../contracts/retrieval';
import { validateBody } from '../platform/http/validate';
import type { EmbeddingService } from './embedding/embedding.service';
import type { RetrievalSettings } from './retrieval-config';

/** Settings endpoints answer 400 for invalid values, like the other admin settings. */
const AS_400 = { status: 400 } as const;

/** Section 4.7 and the collection query. Mounted at `/api/v1/retrieval`. */
export function retrievalRoutes(deps: {
  settings: RetrievalSettings;
  embeddings: EmbeddingService;
  /** Runs a query over collections the caller may read (the knowledge domain checks access). */
  query: (user: SessionUser, request: QueryCollectionRequest) => Promise<QueryCollectionResponse>;
}): Router {
  const router = Router();
  router.get('/config', requireAdmin, async (_req, res) => {
    res.json(await deps.settings.get());
  });
  const update: RequestHandler = async (req, res) => {
    res.json(await deps.settings.update(req.body as RetrievalConfigUpdate));
  };
  router.post('/config/update', requireAdmin, validateBody(RetrievalConfigUpdate, AS_400), update);
  router.post('/config', requireAdmin, validateBody(RetrievalConfigUpdate, AS_400), update);
  router.get('/embedding', requireAdmin, async (_req, res) => {
    res.json(await deps.embeddings.get());
  });
  router.post('/embedding/update', requireAdmin, validateBody(EmbeddingConfigUpdate, AS_400), async (req, res) => {
    res.json(await deps.embeddings.update(req.body as EmbeddingConfigUpdate, authOf(req).user.id));
  });
  router.post('/query/collection', requireUser, validateBody(QueryCollectionRequest), async (req, res) => {
    res.json(await deps.query(authOf(req).user, req.body as QueryCollectionRequest));
  });
  return router;
}
