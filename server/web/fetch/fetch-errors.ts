/** Why a page or engine could not be read; `code` is stable, the message is for people. */
export type FetchErrorCode =
  | 'BAD_URL'
  | 'BLOCKED_ADDRESS'
  | 'TOO_MANY_REDIRECTS'
  | 'TOO_LARGE'
  | 'TIMEOUT'
  | 'NOT_TEXT'
  | 'HTTP_STATUS'
  | 'UNREACHABLE'
  | 'OFFLINE'
  | 'ABORTED';

/** A page fetch or engine call that failed, with a reason a user can act on (never a key or a full URL with secrets). */
export class WebFetchError extends Error {
  constructor(
    readonly code: FetchErrorCode,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'WebFetchError';
  }
}

/** True for a {@link WebFetchError}, also one undici wrapped on its way out of a connector. */
export function asWebFetchError(error: unknown): WebFetchError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth += 1) {
    if (current instanceof WebFetchError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
