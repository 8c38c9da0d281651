import net from 'node:net';
import tls from 'node:tls';

/** What a raw connection saw: everything the server sent, and when it closed (ms after the first byte was sent). */
export interface RawExchange {
  received: string;
  closedAfterMs: number;
}

export interface RawSocketOptions {
  /** Speak TLS (any certificate is accepted). */
  tls?: boolean;
  /** Sent at once. */
  send?: string | Buffer;
  /** Then sent one byte every `dripMs` until the server closes the connection. */
  drip?: string;
  dripMs?: number;
  /** Gives up (and fails) after this long. */
  timeoutMs?: number;
}

/**
 * A client written by hand, as an attacker would: connects to host:port, sends `send`, then
 * trickles `drip` byte by byte; resolves with what came back once the server closes the
 * connection (rejects if it is still open after `timeoutMs`).
 */
export function rawExchange(host: string, port: number, options: RawSocketOptions): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    let received = '';
    let started = 0;
    let dripTimer: NodeJS.Timeout | undefined;
    const socket: net.Socket = options.tls ? tls.connect({ host, port, rejectUnauthorized: false, servername: 'localhost' }) : net.connect({ host, port });
    const giveUp = setTimeout(() => {
      clearInterval(dripTimer);
      socket.destroy();
      reject(new Error(`the server kept the connection open for ${options.timeoutMs ?? 10_000} ms; it sent: ${JSON.stringify(received)}`));
    }, options.timeoutMs ?? 10_000);
    socket.on(options.tls ? 'secureConnect' : 'connect', () => {
      started = Date.now();
      if (options.send !== undefined) socket.write(options.send);
      const drip = [...(options.drip ?? '')];
      if (drip.length > 0) {
        dripTimer = setInterval(() => {
          const next = drip.shift();
          if (next === undefined || socket.destroyed) return clearInterval(dripTimer);
          socket.write(next);
        }, options.dripMs ?? 50);
      }
    });
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(giveUp);
      clearInterval(dripTimer);
      resolve({ received, closedAfterMs: started === 0 ? 0 : Date.now() - started });
    });
  });
}
