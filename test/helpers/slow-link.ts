import net, { type AddressInfo, type Socket } from 'node:net';

/** A TCP relay in front of a service that delays everything, both ways: a slow office LAN. */
export interface SlowLink {
  /** `http://127.0.0.1:PORT`, to be used instead of the service's own URL. */
  url: string;
  close(): Promise<void>;
}

/**
 * Relays 127.0.0.1:<new port> to `target`, holding every piece of data, every end and every
 * reset for `delayMs` in each direction (in order), as a slow link does: a client's disconnect
 * reaches the service late, and frames the service wrote reach the client late.
 */
export async function startSlowLink(target: string, delayMs: number): Promise<SlowLink> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const later = (fn: () => void) => setTimeout(fn, delayMs);
  const pipe = (from: Socket, to: Socket) => {
    from.on('data', (chunk) => later(() => !to.destroyed && to.write(chunk)));
    from.on('end', () => later(() => !to.destroyed && to.end()));
    from.on('close', () => later(() => to.destroy()));
    from.on('error', () => undefined);
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    }
    pipe(client, upstream);
    pipe(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
