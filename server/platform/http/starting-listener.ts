import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Logger } from '../log';
import { applyTimeouts, httpServerOptions, limitConnections, type HttpTimeouts } from './connection-limits';
import { guarded } from './guarded';

/** How long a request that arrives during the start waits for the service before it is told to come back. */
export const START_WAIT_MS = 60_000;

/** The main listener, open from the first moments of a start; the service takes over its requests once it is ready. */
export interface StartingListener {
  server: Server;
  /** Open connections, for closing them when the service stops. */
  sockets: Set<Socket>;
  port: number;
  /** The service is ready: waiting requests and every later one go to `app`. */
  serve(app: RequestListener): void;
  /** The start failed: waiting requests are answered 503 and the port is closed. */
  fail(): Promise<void>;
}

const startingBody = JSON.stringify({ status: true, starting: true });
const failedBody = JSON.stringify({ detail: 'Parley could not start; see its log' });
const waitedBody = JSON.stringify({ detail: 'Parley is still starting (upgrading its database); try again shortly' });

function answer(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers });
  res.end(body);
}

/**
 * Listens before the database is migrated and the services are built (the slow part of a start,
 * an upgrade's snapshot and migrations above all): `/health` answers at once (`{"status": true,
 * "starting": true}` until the service is ready), and every other request waits for the service
 * and is then served by it, or is answered 503 with Retry-After after `waitMs` or when the start
 * fails. Nothing is served before the service is ready: a desktop owner exists before any sign-up
 * is handled, and the service's own Host and Origin checks apply to every request it serves.
 */
export async function listenWhileStarting(options: { host: string; port: number; timeouts: HttpTimeouts; log: Logger; waitMs?: number }): Promise<StartingListener> {
  const { log, waitMs = START_WAIT_MS } = options;
  let app: RequestListener | undefined;
  let failed = false;
  const waiting = new Set<() => void>();

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    if (app) return app(req, res);
    if (failed) return answer(res, 503, failedBody);
    if (req.method === 'GET' && (req.url ?? '/').split('?')[0] === '/health') return answer(res, 200, startingBody);
    const release = () => {
      clearTimeout(timer);
      waiting.delete(release);
      // Through the server's listeners as they are now: socket.io, attached once the service was
      // ready, takes its own paths; the rest reaches the app.
      if (app) server.emit('request', req, res);
      else answer(res, 503, failed ? failedBody : waitedBody, { 'retry-after': '5' });
    };
    const timer = setTimeout(release, waitMs);
    timer.unref();
    waiting.add(release);
    res.on('close', () => {
      clearTimeout(timer);
      waiting.delete(release);
    });
  };

  const server = applyTimeouts(createServer(httpServerOptions(options.timeouts), guarded(log, 'the listener (request)', handle, (_req, res) => answer(res, 500, JSON.stringify({ detail: 'Internal server error' })))), options.timeouts);
  const sockets = new Set<Socket>();
  // Loopback peers (the desktop window) are never refused; a bound-to-all host caps the others.
  const admit = limitConnections();
  server.on(
    'connection',
    guarded(log, 'the listener (connection)', (socket: Socket) => {
      if (!admit(socket)) return;
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }, (socket: Socket) => socket.destroy()),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const releaseAll = () => {
    for (const release of [...waiting]) release();
  };
  return {
    server,
    sockets,
    port: (server.address() as AddressInfo).port,
    serve(ready) {
      app = ready;
      releaseAll();
    },
    async fail() {
      failed = true;
      releaseAll();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
