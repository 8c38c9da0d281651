import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import net, { type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { markLanSocket } from '../platform/http/listener-tags';
import { plainAddress } from '../platform/http/trusted-proxies';
import { applyTimeouts, enforceDeadlines, httpServerOptions, limitConnections, timeoutsOf, type ConnectionLimits, type HttpTimeouts } from '../platform/http/connection-limits';
import { guarded } from '../platform/http/guarded';
import { hostnameOf } from '../platform/http/host-allowlist';
import type { Logger } from '../platform/log';

/** A second listening socket that serves the same app as the main server. */
export interface LanListener {
  host: string;
  port: number;
  /** Stops LAN access at once: closes the listener and destroys every open LAN connection. */
  close(): Promise<void>;
}

export interface LanListenerOptions {
  /** Certificate and key: the listener speaks HTTPS and redirects plain HTTP on the same port. */
  tls?: { cert: string; key: string };
  /** Per-address and total connection caps (defaults in platform/http/connection-limits). */
  limits?: Partial<ConnectionLimits>;
  /** True when a `Host` may be used in the HTTP → HTTPS redirect (the service's own names). */
  hostAllowed?: (host: string | undefined) => boolean;
  /** Where a failure of the listener's own code is reported (it never ends the process). */
  log: Pick<Logger, 'error'>;
}

/** The first byte of a TLS ClientHello record. */
const TLS_HANDSHAKE = 0x16;

/** How long a new connection may stay silent before its first byte tells TLS from plain HTTP. */
const FIRST_BYTE_MS = 10_000;

/** Ends a raw connection a guarded callback was serving. */
const destroy = (socket: Duplex) => socket.destroy();

/** Answers a request a guarded callback was serving with a 500, or cuts it when that is too late. */
function failed(_req: IncomingMessage, res: ServerResponse): void {
  if (res.headersSent) res.destroy();
  else res.writeHead(500, { 'content-type': 'application/json', connection: 'close' }).end(JSON.stringify({ detail: 'Internal server error' }));
}

/**
 * Answers a plain-HTTP request on the HTTPS port with a redirect to the same path over HTTPS.
 * The redirect names the request's host only when it is one of the service's own names (parsed
 * strictly), else the address the connection came in on.
 */
function redirectToHttps(port: number, hostAllowed: (host: string | undefined) => boolean) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const host = req.headers.host;
    const named = host !== undefined && hostAllowed(host) ? hostnameOf(host) : undefined;
    const hostname = named ?? plainAddress(req.socket.localAddress ?? '127.0.0.1');
    const authority = hostname.includes(':') ? `[${hostname}]` : hostname;
    const location = `https://${authority}:${port}${(req.url ?? '/').startsWith('/') ? req.url : '/'}`;
    res.writeHead(308, { location, 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
    res.end(`Parley is shared over HTTPS here: ${location}\n`);
  };
}

/**
 * An HTTP(S) server that never listens itself: it is handed connections, with the main
 * listener's deadlines. Malformed or timed-out requests get Node's own answers (400, 408, 431).
 */
function handedServer<T extends Server>(server: T, timeouts: HttpTimeouts): T {
  return enforceDeadlines(applyTimeouts(server, timeouts));
}

/**
 * Opens `host:port` and hands every request and upgrade (socket.io) to `target`, the service's
 * main HTTP server, so both listeners run the very same app and realtime channel. With `tls`,
 * connections are HTTPS and a plain-HTTP request on the same port gets a 308 to its HTTPS URL
 * (the first byte tells them apart). Each address may hold only so many connections; slow
 * clients are cut by the main listener's header, request and keep-alive timeouts (and a TLS
 * handshake by the header timeout); closing cuts every connection at once. Every callback of the
 * listener's own is guarded: a failure closes that connection, never the process.
 */
export async function openLanListener(target: Server, host: string, port: number, options: LanListenerOptions): Promise<LanListener> {
  const { log } = options;
  const timeouts = timeoutsOf(target);
  const serverOptions = httpServerOptions(timeouts);
  const forward = guarded(log, 'the LAN listener (request)', (req: IncomingMessage, res: ServerResponse) => {
    markLanSocket(req.socket);
    target.emit('request', req, res);
  }, failed);
  const app = handedServer(
    options.tls
      ? createHttpsServer({ cert: options.tls.cert, key: options.tls.key, minVersion: 'TLSv1.2', handshakeTimeout: timeouts.headersTimeout, ...serverOptions }, forward)
      : createHttpServer(serverOptions, forward),
    timeouts,
  );
  app.on('upgrade', guarded(log, 'the LAN listener (upgrade)', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    markLanSocket(req.socket);
    target.emit('upgrade', req, socket, head);
  }, (_req: IncomingMessage, socket: Duplex) => socket.destroy()));
  app.on('tlsClientError', guarded(log, 'the LAN listener (TLS)', (_error: Error, socket: Duplex) => socket.destroy(), (_error: Error, socket: Duplex) => socket.destroy()));

  let redirector: Server | undefined;
  const sockets = new Set<Socket>();
  const admit = limitConnections(options.limits);
  const sniff = guarded(log, 'the LAN listener (first byte)', (socket: Socket) => {
    socket.setTimeout(0);
    const first: Buffer | null = socket.read(1);
    if (first === null) return void socket.destroy();
    socket.unshift(first);
    if (first[0] === TLS_HANDSHAKE) {
      app.emit('connection', socket);
    } else {
      redirector ??= handedServer(createHttpServer(serverOptions, guarded(log, 'the LAN listener (HTTPS redirect)', redirectToHttps(listeningPort, options.hostAllowed ?? (() => false)), failed)), timeouts);
      redirector.emit('connection', socket);
    }
  }, destroy);
  const front = net.createServer({ pauseOnConnect: true }, guarded(log, 'the LAN listener (connection)', (socket: Socket) => {
    socket.on('error', () => socket.destroy());
    if (!admit(socket)) return;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    if (!options.tls) {
      app.emit('connection', socket);
      socket.resume();
      return;
    }
    socket.setTimeout(Math.min(FIRST_BYTE_MS, timeouts.headersTimeout), () => socket.destroy());
    socket.once('readable', () => sniff(socket));
    socket.resume();
    socket.pause();
  }, destroy));
  front.maxConnections = admit.limits.total;

  await new Promise<void>((resolve, reject) => {
    front.once('error', reject);
    front.listen({ host, port, exclusive: true }, () => {
      front.off('error', reject);
      resolve();
    });
  });
  front.on('error', (error) => log.error({ err: error }, 'the LAN listener failed'));
  const listeningPort = (front.address() as AddressInfo).port;

  let closing: Promise<void> | undefined;
  return {
    host,
    port: listeningPort,
    close() {
      closing ??= new Promise<void>((resolve) => {
        front.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        // Stops their deadline checks (they never listened, so each answers "not running").
        app.close(() => undefined);
        redirector?.close(() => undefined);
      });
      return closing;
    },
  };
}
