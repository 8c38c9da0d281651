import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { V1Error } from '../contracts/openai';
import { toHttpError } from '../platform/http/error-handler';
import type { Logger } from '../platform/log';

/** OpenAI's error `type` for an HTTP status. */
function typeOf(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

/** The OpenAI error body for a status, a message and Parley's error code. */
export function openAiError(status: number, message: string, code: string | null): V1Error {
  const param = /^Field '([^']+)'/.exec(message)?.[1] ?? null;
  return { error: { message, type: typeOf(status), code: code ? code.toLowerCase() : null, param } };
}

/**
 * The /v1 error handler: the same errors as everywhere, in OpenAI's shape
 * (`{error: {message, type, code, param}}`) so OpenAI clients raise their own typed errors.
 */
export function openAiErrorHandler(log: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (res.headersSent) {
      log.warn({ err: error, path: req.path }, 'error after the /v1 response started');
      res.destroy();
      return;
    }
    const known = toHttpError(error);
    if (known) {
      res.set(known.headers);
      res.status(known.status).json(openAiError(known.status, known.detail, known.code));
      return;
    }
    log.error({ err: error, method: req.method, path: req.path }, 'unhandled error');
    res.status(500).json(openAiError(500, 'Internal server error', 'internal_error'));
  };
}

/** Unknown /v1 paths answer 404 in OpenAI's shape. */
export const openAiNotFound: RequestHandler = (req, res) => {
  res.status(404).json(openAiError(404, `No route for ${req.method} ${req.baseUrl}${req.path}`, 'not_found'));
};

/** What follows the /v1 routes: 404 for unknown paths, then every error in OpenAI's shape. */
export function openAiFallbacks(log: Logger): [RequestHandler, ErrorRequestHandler] {
  return [openAiNotFound, openAiErrorHandler(log)];
}
