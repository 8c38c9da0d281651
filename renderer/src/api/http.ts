/** The one HTTP client of the UI: JSON in and out, the session token, and errors as ApiError. */

const TOKEN_KEY = 'parley.token';

/**
 * An error answer of the API: its status, the service's English `detail`, its stable `code`
 * (the UI shows catalog words for known codes, see components/Feedback) and, for 429, the seconds
 * to wait. Status 0 means the service could not be reached.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly code?: string,
    readonly retryAfter?: number,
    /** The whole error body (a 409 carries the newer version of what was saved). */
    readonly body?: Record<string, unknown>,
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}

/** Codes of failures found on this side of the wire (the service's own codes come in error bodies). */
export const CLIENT_ERRORS = {
  unreachable: 'UNREACHABLE',
  noBody: 'NO_BODY',
  notJson: 'NOT_JSON',
  modelError: 'MODEL_ERROR',
} as const;

/** The error for a service that cannot be reached (network down, Parley stopped). */
export function unreachable(): ApiError {
  return new ApiError(0, 'The service cannot be reached. Check that Parley is running and try again.', CLIENT_ERRORS.unreachable);
}

/** Seconds of a Retry-After header, if it holds a number. */
function retryAfterOf(value: string | null): number | undefined {
  const seconds = value === null ? NaN : Number(value);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

/** Reads an error body (`{detail, code}`, or other services' `message`/`error`) from its text. */
function parseError(status: number, statusText: string, text: string, retryAfter: string | null): ApiError {
  let detail = statusText || `Request failed (${status})`;
  let code: string | undefined;
  let whole: Record<string, unknown> | undefined;
  try {
    const body = JSON.parse(text) as { detail?: unknown; message?: unknown; error?: unknown; code?: unknown };
    if (body && typeof body === 'object') whole = body as Record<string, unknown>;
    const d = body.detail ?? body.message ?? body.error;
    if (typeof d === 'string') detail = d;
    else if (d) detail = JSON.stringify(d);
    if (typeof body.code === 'string') code = body.code;
  } catch {
    if (text && text.length < 300 && !text.startsWith('<')) detail = text;
  }
  return new ApiError(status, detail, code, retryAfterOf(retryAfter), whole);
}

let token: string | null = readStoredToken();
const unauthorizedListeners = new Set<() => void>();

function readStoredToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

/** The current session token (JWT), if signed in. */
export function getToken(): string | null {
  return token;
}

/** Keeps the session token for later requests (null signs out locally). */
export function setToken(next: string | null): void {
  token = next;
  try {
    if (next) localStorage.setItem(TOKEN_KEY, next);
    else localStorage.removeItem(TOKEN_KEY);
  } catch {
    /* storage may be unavailable (private mode); the cookie still works */
  }
}

/** Called when the service answers 401 to a signed-in request: the session ended. */
export function onUnauthorized(listener: () => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

export type Query = Record<string, string | number | boolean | undefined | null>;

/** Builds a path with a query string, skipping empty values. */
export function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const s = params.toString();
  return s ? `${path}?${s}` : path;
}

/** Headers every request carries. */
export function authHeaders(): Record<string, string> {
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/** Reads an error body into a message a user can act on. */
export async function errorOf(res: Response): Promise<ApiError> {
  const text = await res.text().catch(() => '');
  return parseError(res.status, res.statusText, text, res.headers.get('Retry-After'));
}

function notifyUnauthorized(status: number): void {
  if (status === 401 && token) for (const l of unauthorizedListeners) l();
}

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
  /** Do not treat a 401 as the end of the session (sign-in itself, optional probes). */
  quiet401?: boolean;
}

/** Sends one request and returns the parsed JSON answer. */
export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...authHeaders() };
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let res: Response;
  try {
    res = await fetch(withQuery(path, options.query), { method, headers, body, signal: options.signal, credentials: 'same-origin' });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw unreachable();
  }
  if (!res.ok) {
    if (!options.quiet401) notifyUnauthorized(res.status);
    throw await errorOf(res);
  }
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export const http = {
  get: <T>(path: string, query?: Query, options: Omit<RequestOptions, 'query'> = {}) => request<T>('GET', path, { ...options, query }),
  post: <T>(path: string, body?: unknown, options: RequestOptions = {}) => request<T>('POST', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options: RequestOptions = {}) => request<T>('PATCH', path, { ...options, body }),
  delete: <T>(path: string, query?: Query) => request<T>('DELETE', path, { query }),
};

/** Uploads a form with progress (fetch cannot report upload progress; XHR can). */
export function uploadForm<T>(path: string, form: FormData, onProgress?: (fraction: number) => void, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.setRequestHeader('Accept', 'application/json');
    for (const [k, v] of Object.entries(authHeaders())) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress?.(e.loaded / e.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress?.(1);
        try {
          resolve((xhr.responseText ? JSON.parse(xhr.responseText) : undefined) as T);
        } catch {
          reject(new ApiError(xhr.status, 'The service sent an answer that is not JSON.', CLIENT_ERRORS.notJson));
        }
        return;
      }
      notifyUnauthorized(xhr.status);
      const error = parseError(xhr.status, xhr.statusText, xhr.responseText, xhr.getResponseHeader('Retry-After'));
      reject(xhr.status === 413 && !error.code ? new ApiError(413, error.detail, 'PAYLOAD_TOO_LARGE') : error);
    };
    xhr.onerror = () => reject(unreachable());
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(form);
  });
}
