import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import net, { type AddressInfo, type Socket } from 'node:net';
import { markLanSocket } from '../platform/http/listener-tags';
import { plainAddress } from '../platform/http/trusted-proxies';
import { applyTimeouts, limitConnections, type ConnectionLimits } from '../platform/http/connection-limits';

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
}

/** The first byte of a TLS ClientHello record. */
const TLS_HANDSHAKE = 0x16;

/** Answers a plain-HTTP request on the HTTPS port with a redirect to the same path over HTTPS. */
function redirectToHttps(port: number, hostAllowed: (host: string | undefined) => boolean) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const host = req.headers.host;
    const hostname = host && hostAllowed(host) ? new URL(`http://${host}`).hostname : plainAddress(req.socket.localAddress ?? '127.0.0.1');
    const authority = hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
    const location = `https://${authority}:${port}${(req.url ?? '/').startsWith('/') ? req.url : '/'}`;
    res.writeHead(308, { location, 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
    res.end(`Parley is shared over HTTPS here: ${location}\n`);
  };
}

/**
 * Opens `host:port` and hands every request and upgrade (socket.io) to `target`, the service's
 * main HTTP server, so both listeners run the very same app and realtime channel. With `tls`,
 * connections are HTTPS and a plain-HTTP request on the same port gets a 308 to its HTTPS URL
 * (the first byte tells them apart). Each address may hold only so many connections, slow
 * clients are cut by header and request timeouts, and closing cuts every connection at once.
 */
export async function openLanListener(target: Server, host: string, port: number, options: LanListenerOptions = {}): Promise<LanListener> {
  const forward = (req: IncomingMessage, res: ServerResponse) => {
    markLanSocket(req.socket);
    target.emit('request', req, res);
  };
  const app = options.tls ? createHttpsServer({ cert: options.tls.cert, key: options.tls.key, minVersion: 'TLSv1.2' }, forward) : createHttpServer(forward);
  applyTimeouts(app);
  app.on('upgrade', (req: IncomingMessage, socket, head) => {
    markLanSocket(req.socket);
    target.emit('upgrade', req, socket, head);
  });
  // A client that resets mid-handshake must not crash the process.
  app.on('tlsClientError', (_error, socket) => socket.destroy());
  app.on('clientError', (_error, socket) => socket.destroy());

  let redirector: Server | undefined;
  const sockets = new Set<Socket>();
  const admit = limitConnections(options.limits);
  const front = net.createServer({ pauseOnConnect: true }, (socket) => {
    if (!admit(socket)) return;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    if (!options.tls) {
      app.emit('connection', socket);
      socket.resume();
      return;
    }
    socket.setTimeout(10_000, () => socket.destroy());
    socket.once('readable', () => {
      socket.setTimeout(0);
      const first: Buffer | null = socket.read(1);
      if (first === null) return socket.destroy();
      socket.unshift(first);
      if (first[0] === TLS_HANDSHAKE) {
        app.emit('connection', socket);
      } else {
        redirector ??= applyTimeouts(createHttpServer(redirectToHttps(listeningPort, options.hostAllowed ?? (() => false))));
        redirector.emit('connection', socket);
      }
    });
    socket.resume();
    socket.pause();
  });
  front.maxConnections = admit.limits.total;

  await new Promise<void>((resolve, reject) => {
    front.once('error', reject);
    front.listen({ host, port, exclusive: true }, () => {
      front.off('error', reject);
      resolve();
    });
  });
  front.on('error', () => undefined);
  const listeningPort = (front.address() as AddressInfo).port;

  let closing: Promise<void> | undefined;
  return {
    host,
    port: listeningPort,
    close() {
      closing ??= new Promise<void>((resolve) => {
        front.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}
