import type { Logger } from '../log';

/**
 * Wraps a callback of a raw listener (a net, http, https or tls server event, a socket event):
 * code that runs outside Express, where an exception would reach the process and end the
 * service for everyone. An exception is logged and `recover` ends what the callback was serving
 * (answers the request, destroys the socket) while the listener goes on.
 */
export function guarded<A extends unknown[]>(log: Pick<Logger, 'error'>, what: string, callback: (...args: A) => void, recover: (...args: A) => void): (...args: A) => void {
  return (...args: A) => {
    try {
      callback(...args);
    } catch (error) {
      log.error({ err: error }, `${what} failed; the connection was closed and the listener goes on`);
      try {
        recover(...args);
      } catch {
        // The connection is gone already.
      }
    }
  };
}
