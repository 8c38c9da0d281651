import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { plainAddress } from './trusted-proxies';

/**
 * The origin a request reached the service at, for absolute URLs the service builds (OAuth
 * redirects): the PARLEY_PUBLIC_URL origin whose host the request named, else the first public
 * URL, else the listener's own address and port as the socket reports them. Never the `Host`
 * header itself: a forged header must not choose where a browser is sent.
 */
export function publicOriginOf(req: IncomingMessage, publicUrls: readonly string[]): string {
  const host = String(req.headers.host ?? '').toLowerCase();
  const named = publicUrls.find((url) => new URL(url).host.toLowerCase() === host);
  if (named) return new URL(named).origin;
  if (publicUrls[0]) return new URL(publicUrls[0]).origin;
  const socket = req.socket;
  const scheme = (socket as TLSSocket).encrypted ? 'https' : 'http';
  const address = plainAddress(socket.localAddress ?? '127.0.0.1');
  return `${scheme}://${address.includes(':') ? `[${address}]` : address}:${socket.localPort ?? 80}`;
}
