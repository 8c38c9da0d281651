type BodyInit = string | FormData | Blob | Uint8Array | URLSearchParams | ReadableStream;

/** A response as tests read it. */
export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

/** A tiny JSON client over fetch. */
export interface ApiClient {
  get<T = any>(path: string, init?: RequestInit): Promise<ApiResponse<T>>;
  post<T = any>(path: string, body?: unknown, init?: RequestInit): Promise<ApiResponse<T>>;
  patch<T = any>(path: string, body?: unknown, init?: RequestInit): Promise<ApiResponse<T>>;
  delete<T = any>(path: string, init?: RequestInit): Promise<ApiResponse<T>>;
  /** Sends a raw body (string, FormData, bytes) as is. */
  raw<T = any>(method: string, path: string, body?: BodyInit, headers?: Record<string, string>): Promise<ApiResponse<T>>;
  url: string;
  token?: string;
}

/** What tests need of a running service to talk to it: its URL and clients (a test server or the built one). */
export interface ServiceClients {
  url: string;
  /** An unauthenticated client. */
  anon: ApiClient;
  /** A client that sends `token` as Bearer. */
  as(token: string): ApiClient;
}

/** Creates a client for `base`, sending `token` as Bearer when given. */
export function createClient(base: string, token?: string): ApiClient {
  async function send<T>(method: string, path: string, body?: BodyInit, headers: Record<string, string> = {}, init: RequestInit = {}): Promise<ApiResponse<T>> {
    const res = await fetch(`${base}${path}`, {
      ...init,
      method,
      body,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers, ...(init.headers as Record<string, string> | undefined) },
    });
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('application/json')) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    return { status: res.status, body: parsed as T, headers: res.headers, text };
  }
  const json = (body: unknown) => (body === undefined ? undefined : JSON.stringify(body));
  return {
    url: base,
    token,
    get: (path, init) => send('GET', path, undefined, {}, init),
    post: (path, body, init) => send('POST', path, json(body), { 'content-type': 'application/json' }, init),
    patch: (path, body, init) => send('PATCH', path, json(body), { 'content-type': 'application/json' }, init),
    delete: (path, init) => send('DELETE', path, undefined, {}, init),
    raw: (method, path, body, headers) => send(method, path, body, headers),
  };
}
