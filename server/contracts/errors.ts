import { z } from 'zod';

/** Every error response body: a human-readable message. */
export const ErrorBody = z.object({
  /** What went wrong, in words a user can act on. */
  detail: z.string(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
