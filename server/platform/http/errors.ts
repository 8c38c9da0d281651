/**
 * An error that maps to one HTTP answer. Services throw these (through the helpers below)
 * with a stable `code`; the central error handler turns them into `{detail}` responses.
 */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Record<string, string>;
  /** More fields of the JSON answer beside `detail` and `code` (a 409's newer version). */
  readonly extra: Record<string, unknown>;

  constructor(status: number, code: string, detail: string, headers: Record<string, string> = {}, extra: Record<string, unknown> = {}) {
    super(detail);
    this.name = 'HttpError';
    this.status = status;
    this.code = code;
    this.headers = headers;
    this.extra = extra;
  }

  /** The message shown to the client. */
  get detail(): string {
    return this.message;
  }
}

/** 400: the request cannot be processed as sent. */
export const badRequest = (detail: string, code = 'BAD_REQUEST') => new HttpError(400, code, detail);
/** 401: no credentials, or credentials that are not valid. */
export const unauthorized = (detail = 'Not authenticated', code = 'UNAUTHORIZED') =>
  new HttpError(401, code, detail);
/** 403: authenticated, but not allowed to do this. */
export const forbidden = (detail = 'You do not have permission to do this', code = 'FORBIDDEN') =>
  new HttpError(403, code, detail);
/** 404: the addressed resource does not exist (or must not be revealed). */
export const notFound = (detail = 'Not found', code = 'NOT_FOUND') => new HttpError(404, code, detail);
/** 409: the request conflicts with the current state. */
export const conflict = (detail: string, code = 'CONFLICT', extra: Record<string, unknown> = {}) => new HttpError(409, code, detail, {}, extra);
/** 413: the body or file is larger than allowed. */
export const payloadTooLarge = (detail: string, code = 'PAYLOAD_TOO_LARGE') => new HttpError(413, code, detail);
/** 422: a well-formed body that does not satisfy the schema. */
export const unprocessable = (detail: string, code = 'VALIDATION_FAILED') => new HttpError(422, code, detail);
/** 429: too many attempts; `retryAfterSeconds` becomes the Retry-After header. */
export const tooManyRequests = (detail: string, retryAfterSeconds: number) =>
  new HttpError(429, 'RATE_LIMITED', detail, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });

/** True for our own HTTP errors. */
export function isHttpError(error: unknown): error is HttpError {
  return error instanceof HttpError;
}
