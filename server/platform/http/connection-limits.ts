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
export const HTTP_TIMEOUTS = {
  /** The whole request head must arrive within this time. */
  headersTimeout: 20_000,
  /** The whole request, body included (uploads of 100 MB on a slow network), within this time. */
  requestTimeout: 300_000,
  keepAliveTimeout: 5_000,
} as const;

/** Sets {@link HTTP_TIMEOUTS} on a server; returns it. */
export function applyTimeouts<T extends HttpServer>(server: T): T {
  server.headersTimeout = HTTP_TIMEOUTS.headersTimeout;
  server.requestTimeout = HTTP_TIMEOUTS.requestTimeout;
  server.keepAliveTimeout = HTTP_TIMEOUTS.keepAliveTimeout;
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
