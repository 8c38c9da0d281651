import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from '../log';
import { HttpError, isHttpError } from './errors';

interface BodyParserError extends Error {
  type?: string;
  status?: number;
  expose?: boolean;
  limit?: number;
}

/** Translates errors from body parsers and other middleware into our own HttpError. */
export function toHttpError(error: unknown): HttpError | undefined {
  if (isHttpError(error)) return error;
  const parserError = error as BodyParserError;
  switch (parserError?.type) {
    case 'entity.parse.failed':
      return new HttpError(400, 'MALFORMED_JSON', 'The request body is not valid JSON');
    case 'entity.too.large':
      return new HttpError(413, 'PAYLOAD_TOO_LARGE', 'The request body is too large');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new HttpError(415, 'UNSUPPORTED_ENCODING', 'The request body encoding is not supported');
    case 'request.aborted':
      return new HttpError(400, 'REQUEST_ABORTED', 'The request was aborted by the client');
    default:
      break;
  }
  if (typeof parserError?.status === 'number' && parserError.status >= 400 && parserError.status < 500 && parserError.expose) {
    return new HttpError(parserError.status, 'BAD_REQUEST', parserError.message);
  }
  return undefined;
}

/**
 * The one error handler: every failure leaves as `{detail, code}` JSON, never as HTML or a stack
 * trace. `detail` is English for people and scripts; `code` is stable, so the UI can show its own words.
 */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const known = toHttpError(error);
    if (res.headersSent) {
      log.warn({ err: error, path: req.path }, 'error after the response started');
      res.destroy();
      return;
    }
    if (known) {
      res.set(known.headers);
      res.status(known.status).json({ ...known.extra, detail: known.detail, code: known.code });
      return;
    }
    log.error({ err: error, method: req.method, path: req.path }, 'unhandled error');
    res.status(500).json({ detail: 'Internal server error', code: 'INTERNAL_ERROR' });
  };
}

/** Unknown routes answer 404 JSON. */
export const notFoundHandler: RequestHandler = (req, res) => {
  res.status(404).json({ detail: `No route for ${req.method} ${req.path}`, code: 'ROUTE_NOT_FOUND' });
};
