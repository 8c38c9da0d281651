import cors from 'cors';
import type { RequestHandler } from 'express';

/**
 * CORS is closed by default: browsers may call the API only from the service's own origin.
 * `PARLEY_CORS_ORIGINS` (comma-separated origins) opens it to those origins only.
 */
export function corsPolicy(origins: string[]): RequestHandler {
  if (origins.length === 0) return (_req, _res, next) => next();
  return cors({ origin: origins, credentials: true, maxAge: 600 });
}
