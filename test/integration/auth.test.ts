import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { storedDatabaseText } from '../helpers/stored-text';

const PREFIXES = ['/auths', '/api/v1/auths'] as const;

describe('accounts and sessions', () => {
  let server: TestServer;
  let admin: TestUser;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
  });
  afterAll(async () => {
    await server.close();
  });

  describe('sign-up', () => {
    it('makes the first account the admin and returns a full session', () => {
      expect(admin.role).toBe('admin');
      expect(admin).toMatchObject({ token_type: 'Bearer', name: 'Admin', email: 'admin@example.com', profile_image_url: '/user.png' });
      expect(typeof admin.token).toBe('string');
      expect((admin as any).permissions.workspace.tools).toBe(true);
      expect((admin as any).expires_at).toBeGreaterThan(Date.now() / 1000 + 6 * 86_400);
    });

    it('gives later accounts the default role pending, on both prefixes', async () => {
      for (const prefix of PREFIXES) {
        const res = await server.anon.post(`${prefix}/signup`, { name: 'Newcomer', email: `new${prefix.length}@example.com`, password: 'a-password' });
        expect(res.status).toBe(200);
        expect(res.body.role).toBe('pending');
        expect(res.body.permissions).toBeDefined();
        expect(res.headers.get('set-cookie')).toMatch(/token=.*HttpOnly.*SameSite=Lax/i);
      }
    });

    it('stores emails lower-cased and refuses the same email in another case with 400', async () => {
      const first = await server.anon.post('/auths/signup', { name: 'Case', email: 'MiXeD@Example.com', password: 'a-password' });
      expect(first.body.email).toBe('mixed@example.com');
      const again = await server.anon.post('/auths/signup', { name: 'Case', email: 'mixed@EXAMPLE.com', password: 'a-password' });
      expect(again.status).toBe(400);
      expect(again.body.detail).toMatch(/already registered/);
    });

    it('refuses an invalid email format with 400 naming the field', async () => {
      const res = await server.anon.post('/auths/signup', { name: 'X', email: 'not-an-email', password: 'a-password' });
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(/email/);
    });

    it('refuses a password over 72 bytes with 400 that says so', async () => {
      const res = await server.anon.post('/auths/signup', { name: 'X', email: 'long@example.com', password: 'é'.repeat(37) });
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(/72 bytes/);
    });

    it('answers missing fields, wrong types and huge strings with 400, never 500', async () => {
      const bodies = [
        {},
        { name: 'X' },
        { name: 'X', email: 'a@b.co' },
        { name: 42, email: 'a@b.co', password: 'pw' },
        { name: 'X', email: ['a@b.co'], password: 'pw' },
        { name: 'x'.repeat(100_000), email: 'huge@example.com', password: 'pw' },
        { name: 'X', email: `${'a'.repeat(400)}@example.com`, password: 'pw' },
        null,
        [],
        'text',
      ];
      for (const body of bodies) {
        const res = await server.anon.post('/auths/signup', body);
        expect(res.status, JSON.stringify(body)?.slice(0, 60)).toBe(400);
        expect(typeof res.body.detail).toBe('string');
      }
      const missing = await server.anon.post('/auths/signup', { name: 'X', email: 'a@b.co' });
      expect(missing.body.detail).toMatch(/password/);
    });

    it('is refused with 403 when ENABLE_SIGNUP is off', async () => {
      await server.as(admin.token).post('/auths/admin/config', { ENABLE_SIGNUP: false });
      const res = await server.anon.post('/auths/signup', { name: 'Late', email: 'late@example.com', password: 'a-password' });
      expect(res.status).toBe(403);
      await server.as(admin.token).post('/auths/admin/config', { ENABLE_SIGNUP: true });
    });

    it('honours DEFAULT_USER_ROLE', async () => {
      await server.as(admin.token).post('/api/v1/auths/admin/config', { DEFAULT_USER_ROLE: 'user' });
      const res = await server.anon.post('/auths/signup', { name: 'Direct', email: 'direct@example.com', password: 'a-password' });
      expect(res.body.role).toBe('user');
      await server.as(admin.token).post('/api/v1/auths/admin/config', { DEFAULT_USER_ROLE: 'pending' });
    });
  });

  describe('sign-in', () => {
    it('returns a session on both prefixes, case-insensitively', async () => {
      for (const prefix of PREFIXES) {
        const res = await server.anon.post(`${prefix}/signin`, { email: 'ADMIN@example.com', password: 'admin-password' });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ token_type: 'Bearer', id: admin.id, email: 'admin@example.com', role: 'admin' });
        expect(typeof res.body.expires_at).toBe('number');
      }
    });

    it('refuses a wrong password and an unknown email alike with 400', async () => {
      const wrong = await server.anon.post('/auths/signin', { email: 'admin@example.com', password: 'nope' });
      const unknown = await server.anon.post('/auths/signin', { email: 'ghost@example.com', password: 'nope' });
      expect(wrong.status).toBe(400);
      expect(unknown.status).toBe(400);
      expect(wrong.body.detail).toBe(unknown.body.detail);
    });

    it('answers a malformed body with 400', async () => {
      const res = await server.anon.raw('POST', '/auths/signin', '{"email":', { 'content-type': 'application/json' });
      expect(res.status).toBe(400);
      const typed = await server.anon.post('/auths/signin', { email: 1, password: 2 });
      expect(typed.status).toBe(400);
    });
  });

  describe('current session', () => {
    it('returns the user with permissions and the presented token, on both prefixes', async () => {
      for (const prefix of PREFIXES) {
        const res = await server.as(admin.token).get(`${prefix}/`);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ id: admin.id, role: 'admin', token_type: 'Bearer' });
        expect(res.body.permissions.chat.file_upload).toBe(true);
        expect(res.body.token).toBe(admin.token);
      }
    });

    it('answers 401 without a token, with a bad token, and with a forged one', async () => {
      expect((await server.anon.get('/auths/')).status).toBe(401);
      expect((await server.as('garbage').get('/auths/')).status).toBe(401);
      const [h, p] = admin.token.split('.');
      expect((await server.as(`${h}.${p}.forgedsignature`).get('/auths/')).status).toBe(401);
    });

    it('accepts the session cookie that sign-in sets', async () => {
      const signin = await server.anon.post('/auths/signin', { email: 'admin@example.com', password: 'admin-password' });
      const cookie = (signin.headers.get('set-cookie') ?? '').split(';')[0] as string;
      const res = await server.anon.get('/auths/', { headers: { cookie } });
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(admin.id);
    });

    it('lets a pending user read their session but nothing else', async () => {
      const pending = await buildUser(server, admin, 'pending');
      expect((await server.as(pending.token).get('/auths/')).status).toBe(200);
      expect((await server.as(pending.token).post('/auths/api_key')).status).toBe(403);
      expect((await server.as(pending.token).post('/auths/update/profile', { name: 'P' })).status).toBe(403);
      expect((await server.as(pending.token).get('/auths/signout')).status).toBe(200);
    });
  });

  describe('sign-out', () => {
    it('clears the cookie and ends the token at once', async () => {
      const user = await buildUser(server, admin, 'user');
      const res = await server.as(user.token).get('/api/v1/auths/signout');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: true });
      expect(res.headers.get('set-cookie')).toMatch(/token=;/);
      expect((await server.as(user.token).get('/auths/')).status).toBe(401);
    });
  });

  describe('admin add', () => {
    it('creates a user with the given role and returns a token for them', async () => {
      const res = await server.as(admin.token).post('/auths/add', { name: 'Added', email: 'added@example.com', password: 'a-password', role: 'user' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ name: 'Added', email: 'added@example.com', role: 'user' });
      expect((await server.as(res.body.token).get('/auths/')).body.id).toBe(res.body.id);
    });

    it('refuses an email already in use with 400, and non-admins with 403', async () => {
      const dup = await server.as(admin.token).post('/api/v1/auths/add', { name: 'Dup', email: 'added@example.com', password: 'a-password', role: 'user' });
      expect(dup.status).toBe(400);
      const user = await buildUser(server, admin, 'user');
      const res = await server.as(user.token).post('/auths/add', { name: 'X', email: 'x@example.com', password: 'a-password', role: 'admin' });
      expect(res.status).toBe(403);
      expect((await server.anon.post('/auths/add', { name: 'X', email: 'x@example.com', password: 'a-password' })).status).toBe(401);
    });

    it('refuses an unknown role with 400', async () => {
      const res = await server.as(admin.token).post('/auths/add', { name: 'X', email: 'role@example.com', password: 'a-password', role: 'owner' });
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(/role/);
    });
  });

  describe('API keys', () => {
    it('answers 404 before a key exists, then creates, shows, replaces and deletes it', async () => {
      const user = await buildUser(server, admin, 'user');
      const api = server.as(user.token);
      expect((await api.get('/auths/api_key')).status).toBe(404);

      const created = await api.post('/api/v1/auths/api_key');
      expect(created.status).toBe(200);
      const key = created.body.api_key as string;
      expect(key).toMatch(/^sk-[0-9a-f]{48}$/);
      expect((await api.get('/api/v1/auths/api_key')).body).toEqual({ api_key: key });
      expect((await server.as(key).get('/auths/')).body.id).toBe(user.id);
      expect((await server.anon.get('/auths/', { headers: { 'x-api-key': key } })).status).toBe(200);

      const replaced = (await api.post('/auths/api_key')).body.api_key as string;
      expect(replaced).not.toBe(key);
      expect((await server.as(key).get('/auths/')).status).toBe(401);
      expect((await server.as(replaced).get('/auths/')).status).toBe(200);

      const deleted = await api.delete('/auths/api_key');
      expect(deleted.status).toBe(200);
      expect(deleted.body).toBe(true);
      expect((await server.as(replaced).get('/auths/')).status).toBe(401);
      expect((await api.get('/auths/api_key')).status).toBe(404);
    });

    it('survives sign-out', async () => {
      const user = await buildUser(server, admin, 'user');
      const key = (await server.as(user.token).post('/auths/api_key')).body.api_key as string;
      await server.as(user.token).get('/auths/signout');
      expect((await server.as(key).get('/auths/')).status).toBe(200);
    });

    it('cannot be created when ENABLE_API_KEY is off, and existing keys are refused with 403', async () => {
      const user = await buildUser(server, admin, 'user');
      const key = (await server.as(user.token).post('/auths/api_key')).body.api_key as string;
      await server.as(admin.token).post('/auths/admin/config', { ENABLE_API_KEY: false });
      try {
        const res = await server.as(user.token).post('/auths/api_key');
        expect(res.status).toBe(403);
        expect((await server.as(key).get('/auths/')).status).toBe(403);
      } finally {
        await server.as(admin.token).post('/auths/admin/config', { ENABLE_API_KEY: true });
      }
      expect((await server.as(key).get('/auths/')).status).toBe(200);
    });

    it('keeps only a hash of the key in the database', async () => {
      const user = await buildUser(server, admin, 'user');
      const key = (await server.as(user.token).post('/auths/api_key')).body.api_key as string;
      const bytes = await storedDatabaseText(server.services.db, server.dataDir);
      expect(bytes.includes(key)).toBe(false);
      expect(bytes.includes(key.slice(3))).toBe(false);
    });
  });

  describe('profile and password', () => {
    it('updates name, picture and info, on both prefixes', async () => {
      const user = await buildUser(server, admin, 'user');
      for (const prefix of PREFIXES) {
        const res = await server.as(user.token).post(`${prefix}/update/profile`, { name: `Renamed ${prefix}`, profile_image_url: 'data:image/png;base64,AAAA', info: { logo_url: 'x' } });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ id: user.id, name: `Renamed ${prefix}`, email: user.email, profile_image_url: 'data:image/png;base64,AAAA', info: { logo_url: 'x' } });
      }
      const bad = await server.as(user.token).post('/auths/update/profile', { name: '' });
      expect([400, 422]).toContain(bad.status);
      expect(bad.body.detail).toMatch(/name/);
    });

    it('changes the password only with the right current one', async () => {
      const user = await buildUser(server, admin, 'user');
      const wrong = await server.as(user.token).post('/api/v1/auths/update/password', { password: 'wrong', new_password: 'new-password' });
      expect(wrong.status).toBe(400);
      const ok = await server.as(user.token).post('/auths/update/password', { password: user.password, new_password: 'next-password' });
      expect(ok.status).toBe(200);
      expect(ok.body).toBe(true);
      expect((await server.anon.post('/auths/signin', { email: user.email, password: user.password })).status).toBe(400);
      expect((await server.anon.post('/auths/signin', { email: user.email, password: 'next-password' })).status).toBe(200);
      const tooLong = await server.as(user.token).post('/auths/update/password', { password: 'next-password', new_password: 'new-password'.repeat(73) });
      expect(tooLong.status).toBe(400);
    });
  });

  describe('admin config', () => {
    it('shows the defaults, on both prefixes, to admins only', async () => {
      for (const prefix of PREFIXES) {
        const res = await server.as(admin.token).get(`${prefix}/admin/config`);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ ENABLE_SIGNUP: true, ENABLE_API_KEY: true, DEFAULT_USER_ROLE: 'pending', JWT_EXPIRES_IN: '7d' });
        for (const key of ['ENABLE_MESSAGE_RATING', 'ENABLE_CHANNELS', 'ENABLE_NOTES', 'ENABLE_OAUTH', 'SHOW_ADMIN_DETAILS']) {
          expect(typeof res.body[key]).toBe('boolean');
        }
      }
      const user = await buildUser(server, admin, 'user');
      expect((await server.as(user.token).get('/auths/admin/config')).status).toBe(403);
      expect((await server.as(user.token).post('/auths/admin/config', { ENABLE_SIGNUP: false })).status).toBe(403);
      expect((await server.anon.get('/auths/admin/config')).status).toBe(401);
    });

    it('refuses invalid values with 400 naming the setting, and keeps the old value', async () => {
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ JWT_EXPIRES_IN: 'forever' }, /JWT_EXPIRES_IN/],
        [{ JWT_EXPIRES_IN: '0d' }, /JWT_EXPIRES_IN/],
        [{ DEFAULT_USER_ROLE: 'owner' }, /DEFAULT_USER_ROLE/],
        [{ ENABLE_SIGNUP: 'yes' }, /ENABLE_SIGNUP/],
      ];
      for (const [body, pattern] of cases) {
        const res = await server.as(admin.token).post('/auths/admin/config', body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.detail).toMatch(pattern);
      }
      expect((await server.as(admin.token).get('/auths/admin/config')).body.JWT_EXPIRES_IN).toBe('7d');
    });

    it('accepts durations in every unit and -1 for never', async () => {
      for (const value of ['30m', '12h', '14d', '2w', '90s', '-1']) {
        const res = await server.as(admin.token).post('/api/v1/auths/admin/config', { JWT_EXPIRES_IN: value });
        expect(res.status, value).toBe(200);
        expect(res.body.JWT_EXPIRES_IN).toBe(value);
      }
      const session = await server.anon.post('/auths/signin', { email: 'admin@example.com', password: 'admin-password' });
      expect(session.body.expires_at).toBeNull();
      await server.as(admin.token).post('/auths/admin/config', { JWT_EXPIRES_IN: '7d' });
    });
  });
});
