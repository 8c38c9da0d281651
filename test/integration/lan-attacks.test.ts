import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { io as connectSocket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readBootConfig } from '../../server/platform/env';
import { signupAdmin, type TestUser } from '../helpers/builders';
import { rawRequest } from '../helpers/raw-http';
import { startTestServer, type TestServer } from '../helpers/server';

/** The `host:port` part of a server URL. */
const hostOf = (url: string) => new URL(url).host;

describe('DNS rebinding: only the service own names are served', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ envVars: { PARLEY_PUBLIC_URL: 'https://parley.office.example' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses a request naming a foreign host with 421, before anyone can sign up as the first admin', async () => {
    const port = new URL(server.url).port;
    const health = await rawRequest(`${server.url}/health`, { headers: { host: `rebind.attacker.example:${port}` } });
    expect(health.status).toBe(421);
    expect(JSON.parse(health.body).detail).toMatch(/host name/);
    const signup = await rawRequest(`${server.url}/auths/signup`, {
      method: 'POST',
      headers: { host: `rebind.attacker.example:${port}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Attacker', email: 'attacker@example.com', password: 'pw' }),
    });
    expect(signup.status).toBe(421);
    expect((await server.anon.get('/api/config')).body.onboarding).toBe(true);
  });

  it('serves loopback names, the listener address and PARLEY_PUBLIC_URL', async () => {
    const port = new URL(server.url).port;
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'parley.office.example', 'PARLEY.office.example:443']) {
      expect((await rawRequest(`${server.url}/health`, { headers: { host } })).status, host).toBe(200);
    }
  });

  it('refuses a realtime handshake naming a foreign host', async () => {
    const admin = await signupAdmin(server);
    const port = new URL(server.url).port;
    const refused = await rawRequest(`${server.url}/socket.io/?EIO=4&transport=polling`, { headers: { host: `rebind.attacker.example:${port}`, authorization: `Bearer ${admin.token}` } });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    const accepted = await rawRequest(`${server.url}/socket.io/?EIO=4&transport=polling`, { headers: { host: hostOf(server.url) } });
    expect(accepted.status).toBe(200);
  });

  it('lets pages connect only to their own origin (no bare ws: or wss: in the CSP)', async () => {
    const csp = (await server.anon.get('/health')).headers.get('content-security-policy') ?? '';
    const connect = /connect-src ([^;]*)/.exec(csp)?.[1] ?? '';
    expect(connect.trim()).toBe("'self'");
  });
});

describe('Cross-site requests with the session cookie', () => {
  let server: TestServer;
  let admin: TestUser;
  let cookie: string;
  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    cookie = `token=${admin.token}`;
  });
  afterAll(async () => {
    await server?.close();
  });

  const post = (path: string, headers: Record<string, string>, body: unknown = {}) =>
    rawRequest(`${server.url}${path}`, { method: 'POST', headers: { host: hostOf(server.url), 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('refuses a cookie-authenticated change from another origin, another port of the same host included', async () => {
    const otherPort = `http://127.0.0.1:${Number(new URL(server.url).port) + 1}`;
    for (const headers of <Array<Record<string, string>>>[
      { cookie, origin: 'http://evil.example' },
      { cookie, origin: otherPort },
      { cookie, origin: otherPort, 'sec-fetch-site': 'same-site' },
      { cookie, 'sec-fetch-site': 'cross-site' },
      { cookie, origin: 'null' },
    ]) {
      const res = await post('/api/v1/chats/new', headers, { chat: { title: 'forged' } });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(JSON.parse(res.body).detail).toMatch(/Cross-origin/);
    }
    const chats = await server.as(admin.token).get('/api/v1/chats/');
    expect(chats.body.map((c: { title: string }) => c.title)).not.toContain('forged');
  });

  it('accepts the same change from the served page itself and from scripts with a Bearer token', async () => {
    expect((await post('/api/v1/chats/new', { cookie, origin: server.url, 'sec-fetch-site': 'same-origin' }, { chat: { title: 'from the UI' } })).status).toBe(200);
    expect((await post('/api/v1/chats/new', { cookie, origin: server.url }, { chat: { title: 'older browser' } })).status).toBe(200);
    expect((await post('/api/v1/chats/new', { authorization: `Bearer ${admin.token}`, origin: 'http://evil.example' }, { chat: { title: 'script' } })).status).toBe(200);
  });

  it('does not sign the user out from an image on another port', async () => {
    const res = await rawRequest(`${server.url}/api/v1/auths/signout`, { headers: { host: hostOf(server.url), cookie, 'sec-fetch-site': 'same-site', 'sec-fetch-dest': 'image' } });
    expect(res.status).toBe(403);
    expect((await server.as(admin.token).get('/api/v1/auths/')).status).toBe(200);
  });

  it('refuses a realtime connection opened with the cookie by another origin', async () => {
    const attempt = (origin: string) =>
      new Promise<string>((resolve) => {
        const socket = connectSocket(server.url, { transports: ['websocket'], extraHeaders: { cookie, origin }, reconnection: false, timeout: 3000 });
        socket.on('connect', () => {
          socket.close();
          resolve('connected');
        });
        socket.on('connect_error', () => {
          socket.close();
          resolve('refused');
        });
      });
    expect(await attempt('http://evil.example')).toBe('refused');
    expect(await attempt(server.url)).toBe('connected');
  });
});

describe('Forwarded headers and the SSO header', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy, so guessing cannot hop addresses', async () => {
    server = await startTestServer({ envVars: { PARLEY_SIGNIN_RATE_LIMIT: '1' } });
    await signupAdmin(server);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      const res = await server.anon.post('/auths/signin', { email: `nobody${i}@example.com`, password: 'guess' }, { headers: { 'x-forwarded-for': `198.51.100.${i}` } });
      statuses.push(res.status);
    }
    // 5 failures per address (1 per account × 5) and then the address is blocked.
    expect(statuses.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
    expect(statuses.slice(5)).toEqual([429, 429]);
  });

  it('refuses to start with an SSO header but no trusted proxy list', () => {
    expect(() => readBootConfig({ env: { PARLEY_TRUSTED_EMAIL_HEADER: 'X-Forwarded-Email' } })).toThrow(/PARLEY_TRUSTED_PROXIES/);
    expect(() => readBootConfig({ env: { PARLEY_TRUSTED_PROXIES: '10.0.0.0/33' } })).toThrow(/not an IP address or CIDR range/);
  });

  it('never honours the SSO header on the LAN listener, even from a trusted address', async () => {
    server = await startTestServer({ envVars: { PARLEY_TRUSTED_EMAIL_HEADER: 'X-Forwarded-Email', PARLEY_TRUSTED_PROXIES: '127.0.0.1/32' } });
    const admin = await signupAdmin(server);
    const viaProxy = await server.anon.post('/auths/signin', {}, { headers: { 'x-forwarded-email': admin.email } });
    expect(viaProxy.status).toBe(200);
    const lanPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '0.0.0.0', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    expect((await server.as(admin.token).post('/api/v1/configs/lan', { enabled: true, port: lanPort, tls: 'off' })).status).toBe(200);
    const viaLan = await rawRequest(`http://127.0.0.1:${lanPort}/auths/signin`, {
      method: 'POST',
      headers: { host: `127.0.0.1:${lanPort}`, 'content-type': 'application/json', 'x-forwarded-email': admin.email },
      body: '{}',
    });
    expect(viaLan.status).toBe(400);
    expect(JSON.parse(viaLan.body).token).toBeUndefined();
  });

  it('honours the SSO header only from a configured proxy address', async () => {
    server = await startTestServer({ envVars: { PARLEY_TRUSTED_EMAIL_HEADER: 'X-Forwarded-Email', PARLEY_TRUSTED_PROXIES: '10.9.8.0/24' } });
    const admin = await signupAdmin(server);
    const forged = await server.anon.post('/auths/signin', {}, { headers: { 'x-forwarded-email': admin.email } });
    expect(forged.status).toBe(400);
    expect(forged.body.token).toBeUndefined();
  });
});
