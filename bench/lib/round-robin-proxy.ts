/**
 * A plain round-robin HTTP reverse proxy for benchmarks, built on node:http: each request goes to
 * the next upstream in turn, with `X-Forwarded-For/-Proto/-Host` added and answers streamed
 * back (so SSE answers flow through unbuffered). WebSocket upgrades are piped to the next
 * upstream too. No stickiness: the load clients carry bearer tokens, not cookies.
 */
import { createServer, request, Agent, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A running proxy. */
export interface RoundRobinProxy {
  url: string;
  /** Requests sent to each upstream, in the order given. */
  counts: number[];
  close(): Promise<void>;
}

function forwardedHeaders(req: IncomingMessage): Record<string, string | string[] | undefined> {
  const peer = req.socket.remoteAddress ?? '';
  const prior = req.headers['x-forwarded-for'];
  return { ...req.headers, 'x-forwarded-for': prior ? `${String(prior)}, ${peer}` : peer, 'x-forwarded-proto': 'http', 'x-forwarded-host': req.headers.host ?? '' };
}

/** Starts a proxy on a free loopback port in front of `upstreams` (`http://host:port` origins). */
export async function startRoundRobinProxy(upstreams: string[]): Promise<RoundRobinProxy> {
  const targets = upstreams.map((u) => new URL(u));
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const counts = targets.map(() => 0);
  let next = 0;
  const pick = () => {
    const index = next;
    next = (next + 1) % targets.length;
    counts[index]! += 1;
    return targets[index]!;
  };
  const server = createServer((req, res) => {
    const target = pick();
    // The body is read first (bench bodies are small) so a request can be sent again: an idle
    // keep-alive socket the instance closed just as it was reused fails with ECONNRESET, and
    // Node's documentation answers that race with one retry on a fresh connection.
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const send = (retry: boolean) => {
        const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: forwardedHeaders(req), agent: retry ? agent : false }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        upstream.on('error', (error: NodeJS.ErrnoException) => {
          if (retry && upstream.reusedSocket && error.code === 'ECONNRESET' && !res.headersSent) return send(false);
          if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ detail: `upstream: ${error.message}` }));
        });
        upstream.end(body);
      };
      send(true);
    });
  });
  const sockets = new Set<Socket>();
  server.on('upgrade', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const target = pick();
    const upstream = connect(Number(target.port), target.hostname, () => {
      const headers = Object.entries(forwardedHeaders(req)).flatMap(([k, v]) => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).map((one) => `${k}: ${one}`)));
      upstream.write(`${req.method} ${req.url} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`);
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    close: async () => {
      for (const s of sockets) s.destroy();
      server.closeAllConnections();
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
