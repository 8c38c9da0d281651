import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server as SocketServer } from 'socket.io';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRoundRobinProxy, type RoundRobinProxy } from '../../bench/lib/round-robin-proxy';

/** The proxy bench:load puts in front of one or two instances (BENCH_LOAD_INSTANCES=2). */
describe('bench round-robin proxy', () => {
  const upstreams: Server[] = [];
  let proxy: RoundRobinProxy;

  beforeAll(async () => {
    for (const name of ['a', 'b']) {
      const server = createServer((req, res) => {
        if (req.url === '/stream') {
          // The end comes 1 s after the first piece: a buffering proxy would hold the first until then.
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write('data: first\n\n');
          setTimeout(() => res.end('data: [DONE]\n\n'), 1000);
          return;
        }
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk.toString()));
        req.on('end', () => res.end(JSON.stringify({ name, body, forwardedFor: req.headers['x-forwarded-for'], host: req.headers.host })));
      });
      new SocketServer(server).on('connection', (socket) => socket.on('who', (reply: (name: string) => void) => reply(name)));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      upstreams.push(server);
    }
    proxy = await startRoundRobinProxy(upstreams.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`));
  });

  afterAll(async () => {
    await proxy?.close();
    for (const s of upstreams) {
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    }
  });

  it('sends requests to each instance in turn, with bodies and forwarded headers', async () => {
    const answers = [];
    for (let i = 0; i < 4; i += 1) answers.push((await (await fetch(`${proxy.url}/x`, { method: 'POST', body: `n${i}` })).json()) as { name: string; body: string; forwardedFor: string; host: string });
    expect(answers.map((a) => a.name)).toEqual(['a', 'b', 'a', 'b']);
    expect(answers.map((a) => a.body)).toEqual(['n0', 'n1', 'n2', 'n3']);
    expect(answers[0]?.forwardedFor).toBe('127.0.0.1');
    expect(answers[0]?.host).toBe(new URL(proxy.url).host);
  });

  it('passes a streamed answer through as it comes', async () => {
    const started = performance.now();
    const res = await fetch(`${proxy.url}/stream`);
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    const firstAt = performance.now() - started;
    let rest = '';
    for (let part = await reader.read(); !part.done; part = await reader.read()) rest += new TextDecoder().decode(part.value);
    expect(first).toContain('data: first');
    expect(firstAt).toBeLessThan(700);
    expect(rest).toContain('[DONE]');
  });

  it('pipes WebSocket upgrades (socket.io) to an instance', async () => {
    const socket = io(proxy.url, { transports: ['websocket'], reconnection: false, forceNew: true });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('connect_error', reject);
      });
      const name = await new Promise<string>((resolve) => socket.emit('who', resolve));
      expect(['a', 'b']).toContain(name);
    } finally {
      socket.disconnect();
    }
  });
});
