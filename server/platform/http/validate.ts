import type { RequestHandler } from 'express';
import type { z } from 'zod';
import { HttpError } from './errors';

/** Where a validating middleware keeps its schema, so the API reference can describe the route from it. */
export const VALIDATES = Symbol.for('parley.validates');

/** The part of a request a middleware validates, and the zod schema it uses. */
export interface ValidatedPart {
  part: 'body' | 'query';
  schema: z.ZodType;
}

/** A middleware that may carry the schema it validates. */
export type DescribedHandler = RequestHandler & { [VALIDATES]?: ValidatedPart };

function described(handler: RequestHandler, part: ValidatedPart): RequestHandler {
  return Object.assign(handler, { [VALIDATES]: part });
}

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

/** Raises the deferred JSON parse error, if the body could not be parsed. */
function throwBodyError(req: Parameters<RequestHandler>[0]): void {
  if (req.bodyError) throw req.bodyError;
}

/**
 * Validates the JSON body and replaces `req.body` with the parsed value.
 * Runs after the route's guards, so refusals (401/403) come before validation errors.
 */
export function validateBody<S extends z.ZodType>(schema: S, options: ValidateOptions = {}): RequestHandler {
  return described((req, _res, next) => {
    throwBodyError(req);
    const body: unknown = req.body === undefined ? {} : req.body;
    req.body = parseOrThrow(schema, body, options);
    next();
  }, { part: 'body', schema });
}

/** Validates the query string into `res.locals.query`. */
export function validateQuery<S extends z.ZodType>(schema: S, options: ValidateOptions = {}): RequestHandler {
  return described((req, res, next) => {
    res.locals.query = parseOrThrow(schema, req.query, options);
    next();
  }, { part: 'query', schema });
}
