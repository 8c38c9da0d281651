import { ApiUsageQuery, ApiUsageReport } from '../contracts/api-usage';
import { route, type Routes } from '../platform/http/route';
import type { UsageService } from './usage';

/** GET /api/v1/usage (admin): /v1 requests and tokens per day, user and model. Mounted at `/api/v1/usage`. */
export function usageRoutes(usage: Pick<UsageService, 'report'>): Routes {
  return [
    route({ method: 'get', path: '/', guard: 'admin', query: ApiUsageQuery, invalid: 400, summary: 'Requests and tokens through /v1 per day, user and model', response: ApiUsageReport }, ({ query }) =>
      usage.report(query.days),
    ),
  ];
}
