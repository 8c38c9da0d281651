import { afterEach, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin } from '../helpers/builders';
import { manualClock } from '../helpers/clock';
import { startTestServer, type TestServer } from '../helpers/server';

describe('session security', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('refuses a token once JWT_EXPIRES_IN has passed, with 401 saying it expired', async () => {
    const clock = manualClock();
    server = await startTestServer({ clock });
    const admin = await signupAdmin(server);
    await server.as(admin.token).post('/auths/admin/config', { JWT_EXPIRES_IN: '30m' });
    const user = await buildUser(server, admin, 'user');
    expect((await server.as(user.token).get('/auths/')).status).toBe(200);
    clock.advance(29 * 60);
    expect((await server.as(user.token).get('/auths/')).status).toBe(200);
    clock.advance(2 * 60);
    const expired = await server.as(user.token).get('/auths/');
    expect(expired.status).toBe(401);
    expect(expired.body.detail).toMatch(/expired/);
  });

  it('takes admin rights away at once when an admin is demoted, and all access when deleted', async () => {
    server = await startTestServer();
    const admin = await signupAdmin(server);
    const second = await buildUser(server, admin, 'admin');
    expect((await server.as(second.token).get('/auths/admin/config')).status).toBe(200);
    await server.services.usersRepo.update(second.id, { role: 'user' });
    expect((await server.as(second.token).get('/auths/admin/config')).status).toBe(403);
    // Deleted by an administrator (a write that bypasses the service is seen through the table's
    // change feed instead: at once on SQLite, after PostgreSQL's notification arrives there).
    expect((await server.as(admin.token).delete(`/api/v1/users/${second.id}`)).status).toBe(200);
    expect((await server.as(second.token).get('/auths/')).status).toBe(401);
  });

  it('never lets two racing first sign-ups both become admin', async () => {
    server = await startTestServer();
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => server!.anon.post('/auths/signup', { name: `R${i}`, email: `r${i}@example.com`, password: 'a-password' })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => r.body.role === 'admin')).toHaveLength(1);
    const primaries = await server.services.db('users').where({ is_primary_admin: true });
    expect(primaries).toHaveLength(1);
  });
});

describe('sign-in rate limiting', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('answers 429 with Retry-After after too many failures for an account, even with the right password', async () => {
    server = await startTestServer({ envVars: { PARLEY_SIGNIN_RATE_LIMIT: '3', PARLEY_SIGNIN_RATE_WINDOW: '60' } });
    await signupAdmin(server);
    for (let i = 0; i < 3; i += 1) {
      expect((await server.anon.post('/auths/signin', { email: 'admin@example.com', password: 'bad' })).status).toBe(400);
    }
    const blocked = await server.anon.post('/auths/signin', { email: 'admin@example.com', password: 'admin-password' });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(blocked.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(blocked.body.detail).toMatch(/Too many failed sign-in attempts/);
  });

  it('limits guessing across many accounts from one IP', async () => {
    server = await startTestServer({ envVars: { PARLEY_SIGNIN_RATE_LIMIT: '2' } });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i += 1) {
      statuses.push((await server.anon.post('/auths/signin', { email: `victim${i}@example.com`, password: 'guess' })).status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it('successful sign-ins do not spend the failures’ budget (their own is 5 times larger), and a success clears earlier failures', async () => {
    server = await startTestServer({ envVars: { PARLEY_SIGNIN_RATE_LIMIT: '2' } });
    await signupAdmin(server);
    for (let i = 0; i < 5; i += 1) {
      expect((await server.anon.post('/auths/signin', { email: 'admin@example.com', password: 'admin-password' })).status).toBe(200);
    }
    expect((await server.anon.post('/auths/signin', { email: 'admin@example.com', password: 'bad' })).status).toBe(400);
    expect((await server.anon.post('/auths/signin', { email: 'admin@example.com', password: 'admin-password' })).status).toBe(200);
    expect((await server.anon.post('/auths/signin', { email: 'admin@example.com', password: 'bad' })).status).toBe(400);
    expect((await server.anon.post('/auths/signin', { email: 'admin@example.com', password: 'admin-password' })).status).toBe(200);
  });

  it('is off with PARLEY_SIGNIN_RATE_LIMIT=0', async () => {
    server = await startTestServer({ envVars: { PARLEY_SIGNIN_RATE_LIMIT: '0' } });
    await signupAdmin(server);
    for (let i = 0; i < 15; i += 1) {
      expect((await server.anon.post('/auths/signin', { email: 'admin@example.com', password: 'bad' })).status).toBe(400);
    }
  });
});

describe('trusted-header single sign-on', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('signs in the email the proxy vouches for and refuses password changes with 403', async () => {
    server = await startTestServer({ envVars: { PARLEY_TRUSTED_EMAIL_HEADER: 'X-Forwarded-Email', PARLEY_TRUSTED_NAME_HEADER: 'X-Forwarded-User', PARLEY_TRUSTED_PROXIES: '127.0.0.1/32' } });
    const admin = await signupAdmin(server);
    const res = await server.anon.post('/auths/signin', {}, { headers: { 'x-forwarded-email': 'Sso.Person@Example.com', 'x-forwarded-user': 'Sso Person' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: 'sso.person@example.com', name: 'Sso Person', role: 'pending' });
    const again = await server.anon.post('/auths/signin', {}, { headers: { 'x-forwarded-email': 'sso.person@example.com' } });
    expect(again.body.id).toBe(res.body.id);
    const change = await server.as(admin.token).post('/auths/update/password', { password: 'admin-password', new_password: 'new-password' });
    expect(change.status).toBe(403);
    expect(change.body.detail).toMatch(/trusted header/);
  });
});
