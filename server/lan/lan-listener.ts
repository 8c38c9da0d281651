import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { markLanSocket } from '../platform/http/listener-tags';

/** A second listening socket that serves the same app as the main server. */
export interface LanListener {
  host: string;
  port: number;
  /** Stops LAN access at once: closes the listener and destroys every open LAN connection. */
  close(): Promise<void>;
}

/**
 * Opens `host:port` and hands every request and upgrade (socket.io) to `target`, the service's
 * main HTTP server, so both listeners run the very same app and realtime channel. Connections
 * are tracked so that closing cuts them off instead of waiting for keep-alive to expire.
 */
export async function openLanListener(target: Server, host: string, port: number): Promise<LanListener> {
  const server = createServer({ headersTimeout: 60_000, requestTimeout: 0 }, (req, res) => {
    markLanSocket(req.socket);
    target.emit('request', req, res);
  });
  server.keepAliveTimeout = 5_000;
  server.on('upgrade', (req, socket, head) => {
    markLanSocket(req.socket);
    target.emit('upgrade', req, socket, head);
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port, exclusive: true }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Later socket errors (a client resetting) must not crash the process.
  server.on('error', () => undefined);

  let closing: Promise<void> | undefined;
  return {
    host,
    port: (server.address() as AddressInfo).port,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}
