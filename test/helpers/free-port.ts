import { createServer } from 'node:net';

/** A TCP port nothing listens on right now, on every interface (the LAN listener binds them all, so the OS is asked). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '0.0.0.0', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
