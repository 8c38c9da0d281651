import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';

describe('sessions after a password change', () => {
  let server: TestServer;
  let admin: TestUser;
  beforeAll(async () => {
    server = await startTestServer({ envVars: { PARLEY_SIGNIN_RATE_LIMIT: '3' } });
    admin = await signupAdmin(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  const signin = async (email: string, password: string) => (await server.anon.post('/auths/signin', { email, password })).body.token as string;
  const works = async (token: string) => (await server.as(token).get('/api/v1/auths/')).status;

  it('ends every other session of the user when they change their password, and keeps the current one', async () => {
    const user = await buildUser(server, admin, 'user');
    const laptop = await signin(user.email, user.password);
    const phone = await signin(user.email, user.password);
    const change = await server.as(laptop).post('/api/v1/auths/update/password', { password: user.password, new_password: 'a new password' });
    expect(change.status).toBe(200);
    expect(await works(laptop)).toBe(200);
    expect(await works(phone)).toBe(401);
    expect(await works(user.token)).toBe(401);
    expect(await works(await signin(user.email, 'a new password'))).toBe(200);
  });

  it('answers GET /auths/ with the presented session and stores no new token per call', async () => {
    const user = await buildUser(server, admin, 'user');
    const session = await signin(user.email, user.password);
    const issued = async () => Number(((await server.services.db('issued_tokens').where({ user_id: user.id }).count({ n: '*' })) as Array<{ n: number }>)[0]!.n);
    const before = await issued();
    // The attack: a loop of GET /auths/ grew issued_tokens by one row per call.
    const answers = await Promise.all(Array.from({ length: 40 }, () => server.as(session).get('/api/v1/auths/')));
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ token: session, id: user.id, permissions: expect.any(Object) });
    }
    expect(await issued()).toBe(before);
    // The cookie session is answered the same way, and the cookie carries the same token.
    const byCookie = await server.anon.get('/api/v1/auths/', { headers: { cookie: `token=${session}` } });
    expect(byCookie.status).toBe(200);
    expect(byCookie.body.token).toBe(session);
    expect(await issued()).toBe(before);
  });

  it('ends every session of the user when an admin sets their password', async () => {
    const user = await buildUser(server, admin, 'user');
    const session = await signin(user.email, user.password);
    const reset = await server.as(admin.token).post(`/api/v1/users/${user.id}/update`, { name: user.name, email: user.email, role: 'user', password: 'set by admin' });
    expect(reset.status).toBe(200);
    expect(await works(session)).toBe(401);
    expect(await works(admin.token)).toBe(200);
  });

  it('limits wrong current passwords on the password change like sign-in (429)', async () => {
    const user = await buildUser(server, admin, 'user');
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await server.as(user.token).post('/auths/update/password', { password: `guess ${i}`, new_password: 'new-password' })).status);
    expect(statuses).toEqual([400, 400, 400, 429, 429]);
    const right = await server.as(user.token).post('/auths/update/password', { password: user.password, new_password: 'new-password' });
    expect(right.status).toBe(429);
  });

  it('shows admins whether a user has an API key and lets them revoke it', async () => {
    const user = await buildUser(server, admin, 'user');
    expect((await server.as(admin.token).get(`/api/v1/auths/admin/users/${user.id}/api_key`)).body).toEqual({ exists: false, created_at: null, last_used_at: null });
    const key = (await server.as(user.token).post('/api/v1/auths/api_key')).body.api_key as string;
    expect((await server.as(key).get('/api/v1/auths/')).status).toBe(200);
    const info = await server.as(admin.token).get(`/api/v1/auths/admin/users/${user.id}/api_key`);
    expect(info.body).toMatchObject({ exists: true });
    expect(JSON.stringify(info.body)).not.toContain(key);
    expect((await server.as(user.token).get(`/api/v1/auths/admin/users/${user.id}/api_key`)).status).toBe(403);
    expect((await server.as(admin.token).delete(`/api/v1/auths/admin/users/${user.id}/api_key`)).body).toBe(true);
    expect((await server.as(key).get('/api/v1/auths/')).status).toBe(401);
    expect((await server.as(admin.token).delete('/api/v1/auths/admin/users/no-such-user/api_key')).status).toBe(404);
  });
});
