import type { ApiUsageReport } from '../../../server/contracts/api-usage';
import { http } from './http';

/** Admin: use of the OpenAI-compatible /v1 API. */
export const usageApi = {
  report: (days: number) => http.get<ApiUsageReport>(`/api/v1/usage?days=${days}`),
};
