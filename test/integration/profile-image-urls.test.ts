import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const HOSTILE = ['/api/v1/auths/signout', '/auths/signout', 'https://tracker.example/pixel.png', '//evil.example/x.png', 'javascript:alert(1)', 'data:text/html;base64,PHNjcmlwdD4=', 'data:image/svg+xml,<svg onload=alert(1)>', '/api/v1/users/profile/image?path=x&next=/auths/signout'];

describe('profile_image_url: only inline images or Parley image paths, wherever it is written', () => {
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

  it('refuses an API path or foreign URL on the own profile, and keeps the picture', async () => {
    for (const url of HOSTILE) {
      const res = await server.as(user.token).post('/api/v1/auths/update/profile', { name: 'Mallory', profile_image_url: url });
      expect(res.status, url).toBe(422);
      expect(res.body.detail).toMatch(/profile_image_url/);
    }
    const me = await server.as(admin.token).get(`/api/v1/users/${user.id}`);
    expect(me.body.profile_image_url).toBe('/user.png');
  });

  it('refuses them at sign-up, admin creation and admin update too', async () => {
    const bad = '/api/v1/auths/signout';
    expect((await server.anon.post('/auths/signup', { name: 'S', email: 's@example.com', password: 'pw', profile_image_url: bad })).status).toBe(400);
    expect((await server.as(admin.token).post('/auths/add', { name: 'A', email: 'a@example.com', password: 'pw', role: 'user', profile_image_url: bad })).status).toBe(400);
    expect((await server.as(admin.token).post(`/api/v1/users/${user.id}/update`, { profile_image_url: bad })).status).toBe(422);
  });

  it('refuses them as a model picture, which every user of the model loads', async () => {
    const res = await server.as(user.token).post('/api/v1/models/create', { id: 'mallory-model', name: 'M', base_model_id: 'some-base', meta: { profile_image_url: '/api/v1/auths/signout' }, params: {} });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(JSON.stringify(res.body)).toMatch(/profile_image_url/);
  });

  it('accepts a data:image URL, an uploaded image path and the default', async () => {
    for (const url of [PNG, '/user.png', '/api/v1/users/profile/image?path=profile-images%2Fabc%2Fpic.png', '']) {
      const res = await server.as(user.token).post('/api/v1/auths/update/profile', { name: 'User', profile_image_url: url });
      expect(res.status, url).toBe(200);
      expect(res.body.profile_image_url).toBe(url || '/user.png');
    }
  });
});
