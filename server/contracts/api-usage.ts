import { z } from 'zod';

/** Query of GET /api/v1/usage: how many days back (today included). */
export const ApiUsageQuery = z.object({
  days: z.coerce.number().int().min(1).max(366).default(30),
});
export type ApiUsageQuery = z.infer<typeof ApiUsageQuery>;

/** One user's use of one model on one UTC day, through the /v1 API. */
export const ApiUsageRow = z.object({
  /** `YYYY-MM-DD`, UTC. */
  day: z.string(),
  user_id: z.string(),
  user_name: z.string(),
  user_email: z.string(),
  model: z.string(),
  requests: z.number().int(),
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
});
export type ApiUsageRow = z.infer<typeof ApiUsageRow>;

/** GET /api/v1/usage: rows newest day first. */
export const ApiUsageReport = z.object({
  /** The first day covered. */
  since: z.string(),
  rows: z.array(ApiUsageRow),
});
export type ApiUsageReport = z.infer<typeof ApiUsageReport>;
