import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';

describe('HTTP security', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('sends security headers and no framework banner', async () => {
    server = await startTestServer();
    const res = await server.anon.get('/health');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('x-powered-by')).toBeNull();
  });

  it('keeps CORS closed by default and opens it only to configured origins', async () => {
    server = await startTestServer();
    const preflight = await server.anon.raw('OPTIONS', '/api/v1/auths/signin', undefined, { origin: 'http://evil.example', 'access-control-request-method': 'POST' });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const get = await server.anon.get('/health', { headers: { origin: 'http://evil.example' } });
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
    await server.close();

    server = await startTestServer({ envVars: { PARLEY_CORS_ORIGINS: 'http://tools.office.lan:3000' } });
    const allowed = await server.anon.get('/health', { headers: { origin: 'http://tools.office.lan:3000' } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://tools.office.lan:3000');
    const other = await server.anon.get('/health', { headers: { origin: 'http://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('limits sign-ups per address with 429 and Retry-After', async () => {
    server = await startTestServer({ envVars: { PARLEY_SIGNUP_RATE_LIMIT: '3' } });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      statuses.push((await server.anon.post('/auths/signup', { name: `S${i}`, email: `s${i}@example.com`, password: 'a-password' })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const blocked = await server.anon.post('/auths/signup', { name: 'S', email: 'late@example.com', password: 'a-password' });
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('writes an audit line for each admin change, without bodies or secrets', async () => {
    server = await startTestServer({ keepDataDir: true, logLevel: 'info' });
    const admin = await signupAdmin(server);
    await buildUser(server, admin, 'user');
    await server.as(admin.token).post('/auths/admin/config', { ENABLE_SIGNUP: false });
    await server.as(admin.token).get('/auths/admin/config');
    const logFile = path.join(server.dataDir, 'logs', 'parley.log');
    const dataDir = server.dataDir;
    await server.close();
    server = undefined;
    const lines = readFileSync(logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
    const audits = lines.filter((l) => l.audit === true);
    expect(audits.map((a) => `${a.method} ${a.path} ${a.status}`)).toEqual(['POST /api/v1/auths/add 200', 'POST /auths/admin/config 200']);
    expect(audits[0]?.actor.id).toBe(admin.id);
    const text = readFileSync(logFile, 'utf8');
    expect(text).not.toContain('password-');
    expect(text).not.toContain(admin.token);
    rmSync(dataDir, { recursive: true, force: true });
  });
});
