import type { Server as HttpServer } from 'node:http';
import type { Socket } from 'node:net';
import { plainAddress } from './trusted-proxies';

/** How many connections the listeners facing the network accept. */
export interface ConnectionLimits {
  /** Open connections one address may hold (a browser uses about 6, socket.io one more). */
  perAddress: number;
  /** Open connections in all. */
  total: number;
}

const DEFAULT_LIMITS: ConnectionLimits = { perAddress: 64, total: 2_000 };

/** Header, request and keep-alive timeouts, so clients that trickle bytes cannot hold connections forever. */
export interface HttpTimeouts {
  /** The whole request head must arrive within this time. */
  headersTimeout: number;
  /** The whole request, body included, within this time. */
  requestTimeout: number;
  /** An idle kept-alive connection is closed after this time. */
  keepAliveTimeout: number;
}

/** The service's timeouts: uploads of 100 MB on a slow network fit in the request timeout. */
export const HTTP_TIMEOUTS: Readonly<HttpTimeouts> = {
  headersTimeout: 20_000,
  requestTimeout: 300_000,
  keepAliveTimeout: 5_000,
};

/**
 * Options for `http.createServer` / `https.createServer` that go with `timeouts`: Node checks the
 * header and request deadlines of open connections every `connectionsCheckingInterval` (30 s by
 * default), so a deadline is enforced within a quarter of the header timeout after it passes.
 */
export function httpServerOptions(timeouts: HttpTimeouts = HTTP_TIMEOUTS): { connectionsCheckingInterval: number } {
  return { connectionsCheckingInterval: Math.max(10, Math.min(30_000, Math.floor(timeouts.headersTimeout / 4))) };
}

/** Sets the timeouts on a server (the service's by default); returns it. */
export function applyTimeouts<T extends HttpServer>(server: T, timeouts: HttpTimeouts = HTTP_TIMEOUTS): T {
  server.headersTimeout = timeouts.headersTimeout;
  server.requestTimeout = timeouts.requestTimeout;
  server.keepAliveTimeout = timeouts.keepAliveTimeout;
  return server;
}

/** The timeouts a server runs with (the LAN listener takes the main listener's). */
export function timeoutsOf(server: HttpServer): HttpTimeouts {
  return { headersTimeout: server.headersTimeout, requestTimeout: server.requestTimeout, keepAliveTimeout: server.keepAliveTimeout };
}

/**
 * Starts the header and request deadline checks of a server that is handed its connections
 * (`server.emit('connection', socket)`) instead of listening itself. Node starts those checks
 * when a server begins listening (on its `listening` event), so a server that never listens
 * would wait for a slow client forever; `server.close()` stops them again.
 */
export function enforceDeadlines<T extends HttpServer>(server: T): T {
  server.emit('listening');
  return server;
}

const LOOPBACK = /^(127\.|::1$)/;

/**
 * A gate for new connections: refuses (destroys) one past the per-address cap. Loopback peers
 * are never refused, so the desktop window on this machine is always served.
 */
export function limitConnections(overrides: Partial<ConnectionLimits> = {}) {
  const limits = { ...DEFAULT_LIMITS, ...overrides };
  const open = new Map<string, number>();
  const admit = (socket: Socket): boolean => {
    const address = plainAddress(socket.remoteAddress ?? '');
    if (LOOPBACK.test(address)) return true;
    const count = open.get(address) ?? 0;
    if (count >= limits.perAddress) {
      socket.destroy();
      return false;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
    return true;
  };
  return Object.assign(admit, { limits });
}
