import { createServer } from 'node:http';
import { Agent, request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { X509Certificate } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { generate as generateCertificate } from 'selfsigned';
import { io as connectSocket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LanConfigSection, lanAddresses } from '../../server/lan';
import { memorySecretStore } from '../../server/secrets';
import { signupAdmin, buildUser, type TestUser } from '../helpers/builders';
import { httpsGet } from '../helpers/https-get';
import { rawRequest } from '../helpers/raw-http';
import { startTestServer, tempDataDir, type TestServer } from '../helpers/server';
import { freePort } from '../helpers/free-port';

/** A LAN address of this machine; without one, the all-interfaces listener is still reachable on loopback. */
const realLan = lanAddresses()[0];
const lanHost = realLan ?? '127.0.0.1';

/** GET /health on host:port over HTTPS: the status code, or the connection error code. */
async function probe(host: string, port: number): Promise<number | string> {
  try {
    return (await httpsGet(`https://${host}:${port}/health`)).status;
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

/** GET /health over plain HTTP (the loopback listener). */
async function probeHttp(host: string, port: number): Promise<number | string> {
  try {
    return (await fetch(`http://${host}:${port}/health`, { signal: AbortSignal.timeout(3000), redirect: 'manual' })).status;
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return cause?.code ?? String(error);
  }
}

describe('Share on local network', () => {
  let server: TestServer;
  let admin: TestUser;
  let user: TestUser;
  let port: number;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    user = await buildUser(server, admin, 'user');
    port = await freePort();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('is off by default and lists the machine LAN URLs on the fixed default port', async () => {
    const res = await server.as(admin.token).get('/api/v1/configs/lan');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ enabled: false, port: 8765, listening: false, warnings: [], error: null, tls: 'generated' });
    expect(res.body.addresses).toEqual(lanAddresses());
    expect(res.body.urls).toEqual(lanAddresses().map((a) => `https://${a}:8765`));
    expect(res.body.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  });

  it('is an admin-only setting', async () => {
    expect((await server.anon.get('/api/v1/configs/lan')).status).toBe(401);
    expect((await server.as(user.token).get('/api/v1/configs/lan')).status).toBe(403);
    expect((await server.as(user.token).post('/api/v1/configs/lan', { enabled: true })).status).toBe(403);
    expect((await server.as(user.token).post('/api/v1/configs/lan', { enabled: 'nope' })).status).toBe(403);
  });

  it('refuses invalid values with a 400 naming the field', async () => {
    for (const body of [{ port: 80 }, { port: 70000 }, { port: 'eight' }, { port: 8765.5 }, { enabled: 'yes' }]) {
      const res = await server.as(admin.token).post('/api/v1/configs/lan', body);
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(/port|enabled/);
    }
    const malformed = await server.as(admin.token).raw('POST', '/api/v1/configs/lan', '{"enabled":', { 'content-type': 'application/json' });
    expect(malformed.status).toBe(400);
    expect((await server.as(admin.token).get('/api/v1/configs/lan')).body.enabled).toBe(false);
  });

  it('makes the service reachable on the LAN address only while sharing is on', async () => {
    expect(await probe(lanHost, port)).toBe('ECONNREFUSED');
    const on = await server.as(admin.token).post('/api/v1/configs/lan', { enabled: true, port });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ enabled: true, port, listening: true, error: null });
    expect(await probe(lanHost, port)).toBe(200);
    if (realLan) {
      // The loopback listener itself is still not exposed to the network.
      expect(await probeHttp(realLan, server.port)).toBe('ECONNREFUSED');
    }
    // The whole API works through the LAN listener, not only /health.
    const me = await httpsGet(`https://${lanHost}:${port}/api/v1/auths/`, { authorization: `Bearer ${admin.token}` });
    expect(me.status).toBe(200);
    expect((JSON.parse(me.body) as { email: string }).email).toBe(admin.email);

    const off = await server.as(admin.token).post('/api/v1/configs/lan', { enabled: false });
    expect(off.body).toMatchObject({ enabled: false, listening: false });
    expect(await probe(lanHost, port)).toBe('ECONNREFUSED');
    expect(await probeHttp('127.0.0.1', server.port)).toBe(200);
  });

  it('cuts open LAN connections the moment sharing is turned off', async () => {
    await server.as(admin.token).post('/api/v1/configs/lan', { enabled: true, port });
    // A keep-alive connection with one request done, idle: exactly what a browser keeps open.
    const agent = new Agent({ keepAlive: true, rejectUnauthorized: false });
    const socketClosed = await new Promise<Promise<void>>((resolve, reject) => {
      const req = request({ host: lanHost, port, path: '/health', agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(new Promise<void>((done) => req.socket?.once('close', () => done()))));
      });
      req.on('error', reject);
      req.end();
    });
    const started = Date.now();
    await server.as(admin.token).post('/api/v1/configs/lan', { enabled: false });
    await socketClosed;
    expect(Date.now() - started).toBeLessThan(1000);
    agent.destroy();
  });

  it('carries the realtime channel over the LAN listener and drops it when sharing stops', async () => {
    await server.as(admin.token).post('/api/v1/configs/lan', { enabled: true, port });
    const socket = connectSocket(`https://${lanHost}:${port}`, { transports: ['websocket'], auth: { token: admin.token }, reconnection: false, rejectUnauthorized: false });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      const dropped = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
      await server.as(admin.token).post('/api/v1/configs/lan', { enabled: false });
      expect(await dropped).toMatch(/transport/);
    } finally {
      socket.close();
    }
  });

  it('answers 409 for a port already in use and keeps sharing off', async () => {
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '0.0.0.0', resolve));
    const taken = (squatter.address() as AddressInfo).port;
    try {
      const res = await server.as(admin.token).post('/api/v1/configs/lan', { enabled: true, port: taken });
      expect(res.status).toBe(409);
      expect(res.body.detail).toContain(`Port ${taken} is already in use`);
      const after = await server.as(admin.token).get('/api/v1/configs/lan');
      expect(after.body).toMatchObject({ enabled: false, listening: false, port });
    } finally {
      await new Promise<void>((resolve) => squatter.close(() => resolve()));
    }
  });

  it('warns while sharing when anyone on the network can sign up', async () => {
    const on = await server.as(admin.token).post('/api/v1/configs/lan', { enabled: true, port });
    expect(on.body.warnings.join(' ')).toMatch(/Sign-up is open/);
    expect((await server.as(admin.token).post('/api/v1/auths/admin/config', { ENABLE_SIGNUP: false })).status).toBe(200);
    const closed = await server.as(admin.token).get('/api/v1/configs/lan');
    expect(closed.body.warnings.join(' ')).not.toMatch(/Sign-up/);
    await server.as(admin.token).post('/api/v1/auths/admin/config', { ENABLE_SIGNUP: true });
    await server.as(admin.token).post('/api/v1/configs/lan', { enabled: false });
  });

  it('draws a QR code of a LAN URL and refuses other URLs', async () => {
    const { body } = await server.as(admin.token).get('/api/v1/configs/lan');
    if (body.urls.length > 0) {
      const qr = await server.as(admin.token).get(`/api/v1/configs/lan/qr?url=${encodeURIComponent(body.urls[0])}`);
      expect(qr.status).toBe(200);
      expect(qr.headers.get('content-type')).toContain('image/svg+xml');
      expect(qr.text).toContain('<svg');
    }
    const other = await server.as(admin.token).get(`/api/v1/configs/lan/qr?url=${encodeURIComponent('http://evil.example/')}`);
    expect(other.status).toBe(400);
    expect(other.body.detail).toMatch(/url/);
    expect((await server.as(admin.token).get('/api/v1/configs/lan/qr')).status).toBe(400);
    expect((await server.as(user.token).get('/api/v1/configs/lan/qr?url=x')).status).toBe(403);
  });
});

describe('Share on local network across restarts', () => {
  it('comes back on at start when it was on, and closes with the service', async () => {
    const dataDir = tempDataDir();
    const port = await freePort();
    try {
      const first = await startTestServer({ dataDir });
      const admin = await signupAdmin(first);
      await first.as(admin.token).post('/api/v1/configs/lan', { enabled: true, port });
      await first.close();
      expect(await probe(lanHost, port)).toBe('ECONNREFUSED');

      const second = await startTestServer({ dataDir });
      try {
        expect(await probe(lanHost, port)).toBe(200);
        const status = await second.services.lan.status();
        expect(status).toMatchObject({ enabled: true, listening: true, port });
      } finally {
        await second.close();
      }
      expect(await probe(lanHost, port)).toBe('ECONNREFUSED');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('starts the service even when the LAN port is taken, and reports why sharing is not running', async () => {
    const dataDir = tempDataDir();
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '0.0.0.0', resolve));
    const taken = (squatter.address() as AddressInfo).port;
    try {
      // One secret store for both runs, so the JWT signing key (and the session) survives the restart.
      const secrets = memorySecretStore();
      const first = await startTestServer({ dataDir, secrets });
      const admin = await signupAdmin(first);
      await first.services.config.set(LanConfigSection, { enabled: true, port: taken, tls: 'generated' });
      await first.close();
      const second = await startTestServer({ dataDir, secrets });
      try {
        const status = await second.as(admin.token).get('/api/v1/configs/lan');
        expect(status.body).toMatchObject({ enabled: true, listening: false, port: taken });
        expect(status.body.error).toContain('already in use');
      } finally {
        await second.close();
      }
    } finally {
      await new Promise<void>((resolve) => squatter.close(() => resolve()));
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('HTTPS on the LAN', () => {
  it('serves the certificate whose fingerprint the LAN page shows, and keeps it across restarts', async () => {
    const dataDir = tempDataDir();
    const port = await freePort();
    const secrets = memorySecretStore();
    try {
      const first = await startTestServer({ dataDir, secrets });
      const admin = await signupAdmin(first);
      const on = await first.as(admin.token).post('/api/v1/configs/lan', { enabled: true, port });
      expect(on.body).toMatchObject({ tls: 'generated', listening: true });
      const served = await httpsGet(`https://${lanHost}:${port}/health`);
      expect(served.status).toBe(200);
      expect(served.fingerprint).toBe(on.body.fingerprint);
      // The private key is in the secret store, not in the data dir.
      const files = readdirSync(dataDir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
      for (const file of files) expect(readFileSync(path.join(file.parentPath, file.name)).includes('PRIVATE KEY'), file.name).toBe(false);
      await first.close();

      const second = await startTestServer({ dataDir, secrets });
      try {
        expect((await httpsGet(`https://${lanHost}:${port}/health`)).fingerprint).toBe(on.body.fingerprint);
        expect((await second.services.lan.status()).fingerprint).toBe(on.body.fingerprint);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('redirects plain HTTP on the LAN port to the same address over HTTPS', async () => {
    const server = await startTestServer();
    const port = await freePort();
    try {
      const admin = await signupAdmin(server);
      await server.as(admin.token).post('/api/v1/configs/lan', { enabled: true, port });
      const res = await fetch(`http://${lanHost}:${port}/c/abc?x=1`, { redirect: 'manual' });
      expect(res.status).toBe(308);
      expect(res.headers.get('location')).toBe(`https://${lanHost}:${port}/c/abc?x=1`);
      const forged = await rawRequest(`http://${lanHost}:${port}/`, { headers: { host: 'evil.example' } });
      expect(forged.headers.location).toBe(`https://${lanHost}:${port}/`);
    } finally {
      await server.close();
    }
  });

  it("uses the admin's own certificate, refuses a key that does not match, and can run plain HTTP with a warning", async () => {
    const server = await startTestServer();
    const port = await freePort();
    try {
      const admin = await signupAdmin(server);
      const mine = await generateCertificate([{ name: 'commonName', value: 'parley.office.example' }], { keyType: 'ec', curve: 'P-256', algorithm: 'sha256' });
      const other = await generateCertificate([{ name: 'commonName', value: 'other' }], { keyType: 'ec', curve: 'P-256', algorithm: 'sha256' });
      const mismatch = await server.as(admin.token).post('/api/v1/configs/lan', { certificate: mine.cert, private_key: other.private });
      expect(mismatch.status).toBe(400);
      expect(mismatch.body.detail).toMatch(/private_key/);
      expect((await server.as(admin.token).post('/api/v1/configs/lan', { certificate: 'not a certificate', private_key: mine.private })).status).toBe(400);
      expect((await server.as(admin.token).post('/api/v1/configs/lan', { tls: 'custom', enabled: true, port })).status).toBe(400);

      const custom = await server.as(admin.token).post('/api/v1/configs/lan', { enabled: true, port, certificate: mine.cert, private_key: mine.private });
      expect(custom.status).toBe(200);
      expect(custom.body.tls).toBe('custom');
      expect((await httpsGet(`https://${lanHost}:${port}/health`)).fingerprint).toBe(new X509Certificate(mine.cert).fingerprint256);
      expect(custom.body.fingerprint).toBe(new X509Certificate(mine.cert).fingerprint256);

      const plain = await server.as(admin.token).post('/api/v1/configs/lan', { tls: 'off' });
      expect(plain.body).toMatchObject({ tls: 'off', fingerprint: null, listening: true });
      expect(plain.body.urls.every((u: string) => u.startsWith('http://'))).toBe(true);
      expect(plain.body.warnings.join(' ')).toMatch(/plain HTTP/);
      expect(await probeHttp(lanHost, port)).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('cannot be switched on before an admin account exists, and says who can sign up', async () => {
    const server = await startTestServer();
    const port = await freePort();
    try {
      await expect(server.services.lan.update({ enabled: true, port })).rejects.toMatchObject({ status: 409, code: 'LAN_NEEDS_ADMIN' });
      expect(await probe(lanHost, port)).toBe('ECONNREFUSED');
      const status = await server.services.lan.status();
      expect(status.enabled).toBe(false);
      expect(status.signup).toMatchObject({ open: true, default_role: 'pending' });
      expect(status.signup?.summary).toMatch(/waits for an administrator/);
    } finally {
      await server.close();
    }
  });
});
