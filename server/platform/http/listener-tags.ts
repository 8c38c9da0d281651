import type { Socket } from 'node:net';

const lanSockets = new WeakSet<Socket>();

/** Marks a connection as accepted by the LAN listener (set by server/lan for each request it hands over). */
export function markLanSocket(socket: Socket): void {
  lanSockets.add(socket);
}

/** True when the request came in through the LAN listener rather than the main (loopback) one. */
export function cameThroughLan(req: { socket: Socket }): boolean {
  return lanSockets.has(req.socket);
}
