import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/auth';
import { PASSWORD_MIN_LENGTH } from '../../server/contracts/auth';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';

/** Every place a new password is chosen refuses one shorter than the minimum, naming the rule; sign-in takes any. */
describe(`new passwords: at least ${PASSWORD_MIN_LENGTH} characters`, () => {
  let server: TestServer;
  let admin: TestUser;
  let user: TestUser;
  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    user = await buildUser(server, admin, 'user');
  });
  afterAll(async () => {
    await server?.close();
  });

  const short = 'abc';
  const sevenChars = 'abcdefg';
  const expectRefused = (res: { status: number; body: { detail?: string } }) => {
    expect([400, 422]).toContain(res.status);
    expect(res.body.detail).toMatch(/password/);
    expect(res.body.detail).toMatch(new RegExp(`at least ${PASSWORD_MIN_LENGTH} characters`));
  };

  it('refuses a 3- and a 7-character password at sign-up, and accepts 8', async () => {
    expectRefused(await server.anon.post('/auths/signup', { name: 'Short', email: 'short@example.com', password: short }));
    expectRefused(await server.anon.post('/api/v1/auths/signup', { name: 'Seven', email: 'seven@example.com', password: sevenChars }));
    expect((await server.anon.post('/auths/signup', { name: 'Eight', email: 'eight@example.com', password: 'abcdefgh' })).status).toBe(200);
  });

  it('counts characters, not bytes: eight accented letters are enough', async () => {
    expect((await server.anon.post('/auths/signup', { name: 'Accents', email: 'accents@example.com', password: 'éééééééé' })).status).toBe(200);
  });

  it('refuses it when an admin adds a user or sets a user’s password', async () => {
    expectRefused(await server.as(admin.token).post('/auths/add', { name: 'Added', email: 'added@example.com', password: short, role: 'user' }));
    expectRefused(await server.as(admin.token).post(`/api/v1/users/${user.id}/update`, { password: short }));
    // An empty password in the admin update still means "keep the current one".
    expect((await server.as(admin.token).post(`/api/v1/users/${user.id}/update`, { password: '', name: 'Still signs in' })).status).toBe(200);
    expect((await server.anon.post('/auths/signin', { email: user.email, password: user.password })).status).toBe(200);
  });

  it('refuses it on a password change, and leaves the old password working', async () => {
    expectRefused(await server.as(user.token).post('/auths/update/password', { password: user.password, new_password: short }));
    expect((await server.anon.post('/auths/signin', { email: user.email, password: user.password })).status).toBe(200);
  });

  it('keeps accounts made before the rule working: a short existing password still signs in', async () => {
    const old = await buildUser(server, admin, 'user');
    await server.services.usersRepo.setPasswordHash(old.id, await hashPassword('pw'), Math.floor(Date.now() / 1000));
    const signin = await server.anon.post('/auths/signin', { email: old.email, password: 'pw' });
    expect(signin.status).toBe(200);
    // …and may move to a longer one.
    expect((await server.as(signin.body.token).post('/auths/update/password', { password: 'pw', new_password: 'a-longer-password' })).status).toBe(200);
  });
});
