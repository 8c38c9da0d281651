import { Router, type Express } from 'express';
import { appVersion } from '../platform/app-version';
import { listRoutes } from '../platform/http/route-table';
import { buildOpenApiDocument } from './openapi-document';

/** GET /api/openapi.json: the OpenAPI 3.1 reference, built from the mounted routes once. Mounted at `/api`. */
export function openApiRoutes(): Router {
  const router = Router();
  let cached: string | undefined;
  router.get('/openapi.json', (req, res) => {
    cached ??= JSON.stringify(buildOpenApiDocument(listRoutes(req.app as Express), appVersion()).document);
    res.type('application/json').send(cached);
  });
  return router;
}
