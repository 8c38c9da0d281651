import { z } from 'zod';

/** Every error response body: a human-readable message. */
export const ErrorBody = z.object({
  /** What went wrong, in words a user can act on. */
  detail: z.string(),
  /** A stable name of the error (`EMAIL_TAKEN`, `RATE_LIMITED`): clients show their own words for it. */
  code: z.string().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
