import { Router } from 'express';
import { requireAdmin } from '../session';
import { ApiUsageQuery } from '../contracts/api-usage';
import { validateQuery } from '../platform/http/validate';
import type { UsageService } from './usage';

/** GET /api/v1/usage (admin): /v1 requests and tokens per day, user and model. Mounted at `/api/v1/usage`. */
export function usageRoutes(usage: Pick<UsageService, 'report'>): Router {
  const router = Router();
  router.get('/', requireAdmin, validateQuery(ApiUsageQuery, { status: 400 }), async (_req, res) => {
    const { days } = res.locals.query as ApiUsageQuery;
    res.json(await usage.report(days));
  });
  return router;
}
