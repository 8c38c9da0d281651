import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupAdmin } from '../helpers/builders';
import { freePort } from '../helpers/free-port';
import { httpsGet } from '../helpers/https-get';
import { rawRequest } from '../helpers/raw-http';
import { rawExchange } from '../helpers/raw-socket';
import { startTestServer, type TestServer } from '../helpers/server';

/** Short limits, so slow clients are cut in a second instead of the service's 20 s and 300 s. */
const TIMEOUTS = { headersTimeout: 800, requestTimeout: 1_600, keepAliveTimeout: 400 };
/** Node checks the deadlines every quarter of the header timeout: a cut comes at most that much later. */
const CHECK_MS = TIMEOUTS.headersTimeout / 4;
/** Node keeps an idle connection this much longer than keepAliveTimeout (its socket timer's grace). */
const NODE_KEEP_ALIVE_GRACE_MS = 1_000;
/** What a busy machine may add on top. */
const SLACK_MS = 1_000;
/** A request head that is never finished: one header line after another. */
const ENDLESS_HEADERS = 'x-slow: a\r\n'.repeat(200);

/** The status line and headers of a raw response. */
function head(received: string): { status: number; location?: string } {
  const [statusLine = '', ...lines] = received.split('\r\n\r\n')[0]!.split('\r\n');
  const location = lines.find((l) => l.toLowerCase().startsWith('location:'))?.slice('location:'.length).trim();
  return { status: Number(statusLine.split(' ')[1]), location };
}

describe('the LAN listener against hostile clients', () => {
  let server: TestServer;
  let lanPort: number;

  beforeAll(async () => {
    server = await startTestServer({ httpTimeouts: TIMEOUTS });
    await signupAdmin(server);
    lanPort = await freePort();
    const on = await server.services.lan.update({ enabled: true, port: lanPort, tls: 'generated' });
    expect(on.listening).toBe(true);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const stillServing = async () => {
    expect((await rawRequest(`${server.url}/health`)).status).toBe(200);
    expect((await httpsGet(`https://127.0.0.1:${lanPort}/health`)).status).toBe(200);
  };

  it('survives plain HTTP naming an impossible port (Host: localhost:99999) and redirects to its own address', async () => {
    const sent = await rawExchange('127.0.0.1', lanPort, { send: 'GET /c/abc HTTP/1.1\r\nHost: localhost:99999\r\n\r\n' });
    expect(head(sent.received)).toEqual({ status: 308, location: `https://127.0.0.1:${lanPort}/c/abc` });
    await stillServing();
  });

  it('never redirects to a host hidden behind user info (Host: localhost:x@evil.example)', async () => {
    const sent = await rawExchange('127.0.0.1', lanPort, { send: 'GET / HTTP/1.1\r\nHost: localhost:x@evil.example\r\n\r\n' });
    expect(head(sent.received)).toEqual({ status: 308, location: `https://127.0.0.1:${lanPort}/` });
    // A Host it answers to is kept in the redirect.
    const named = await rawExchange('127.0.0.1', lanPort, { send: `GET / HTTP/1.1\r\nHost: localhost:${lanPort}\r\n\r\n` });
    expect(head(named.received).location).toBe(`https://localhost:${lanPort}/`);
    // The app refuses such a Host on both listeners.
    const main = await rawRequest(`${server.url}/health`, { headers: { host: 'localhost:x@evil.example' } });
    expect(main.status).toBe(400);
    expect(JSON.parse(main.body).detail).toMatch(/Host header/);
    const lan = await rawExchange('127.0.0.1', lanPort, { tls: true, send: 'GET /health HTTP/1.1\r\nHost: localhost:99999\r\nConnection: close\r\n\r\n' });
    expect(head(lan.received).status).toBe(400);
    await stillServing();
  });

  it('cuts an HTTPS client that sends its request head byte by byte, at the header timeout', async () => {
    const slow = await rawExchange('127.0.0.1', lanPort, { tls: true, send: 'GET /health HTTP/1.1\r\nHost: localhost\r\n', drip: ENDLESS_HEADERS, dripMs: 20 });
    expect(head(slow.received).status).toBe(408);
    expect(slow.closedAfterMs).toBeGreaterThanOrEqual(TIMEOUTS.headersTimeout - 100);
    expect(slow.closedAfterMs).toBeLessThan(TIMEOUTS.headersTimeout + CHECK_MS + SLACK_MS);
    await stillServing();
  });

  it('cuts a plain-HTTP client trickling its head on the HTTPS port, at the header timeout', async () => {
    const slow = await rawExchange('127.0.0.1', lanPort, { send: 'GET / HTTP/1.1\r\n', drip: ENDLESS_HEADERS, dripMs: 20 });
    expect(slow.closedAfterMs).toBeLessThan(TIMEOUTS.headersTimeout + CHECK_MS + SLACK_MS);
  });

  it('cuts a client that trickles its body, at the request timeout', async () => {
    const slow = await rawExchange('127.0.0.1', lanPort, {
      tls: true,
      send: 'POST /api/v1/auths/signin HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
      drip: ' '.repeat(999),
      dripMs: 20,
    });
    expect(head(slow.received).status).toBe(408);
    expect(slow.closedAfterMs).toBeGreaterThanOrEqual(TIMEOUTS.requestTimeout - 100);
    expect(slow.closedAfterMs).toBeLessThan(TIMEOUTS.requestTimeout + CHECK_MS + SLACK_MS);
  });

  it('closes an idle kept-alive connection after the keep-alive timeout', async () => {
    const idle = await rawExchange('127.0.0.1', lanPort, { tls: true, send: 'GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n' });
    expect(head(idle.received).status).toBe(200);
    expect(idle.closedAfterMs).toBeLessThan(TIMEOUTS.keepAliveTimeout + NODE_KEEP_ALIVE_GRACE_MS + SLACK_MS);
  });

  it('cuts a TLS handshake that never finishes, at the header timeout', async () => {
    const stalled = await rawExchange('127.0.0.1', lanPort, { send: Buffer.from([0x16, 0x03, 0x01]) });
    expect(stalled.closedAfterMs).toBeLessThan(TIMEOUTS.headersTimeout + SLACK_MS);
    await stillServing();
  });

  it('enforces the same header timeout on the main listener', async () => {
    const port = new URL(server.url).port;
    const slow = await rawExchange('127.0.0.1', Number(port), { send: 'GET /health HTTP/1.1\r\n', drip: ENDLESS_HEADERS, dripMs: 20 });
    expect(head(slow.received).status).toBe(408);
    expect(slow.closedAfterMs).toBeLessThan(TIMEOUTS.headersTimeout + CHECK_MS + SLACK_MS);
  });
});
