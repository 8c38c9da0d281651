import type { z } from 'zod';
import { HttpError } from './errors';

/** How a schema failure is answered: 422 by default, 400 where the interface names 400. */
export interface ValidateOptions {
  status?: 400 | 422;
}

/** Renders the first zod issue as one sentence that names the field. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid request';
  const field = issue.path.length > 0 ? issue.path.map(String).join('.') : undefined;
  if (issue.code === 'invalid_type' && field && /received undefined/.test(issue.message)) {
    return `Field '${field}' is required`;
  }
  return field ? `Field '${field}': ${issue.message}` : issue.message;
}

/** Parses `value` with `schema`, throwing an HttpError that names the failing field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, options: ValidateOptions = {}): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new HttpError(options.status ?? 422, 'VALIDATION_FAILED', describeIssue(result.error));
  }
  return result.data;
}
