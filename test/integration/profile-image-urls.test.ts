import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
/** Absolute URLs, API routes (however spelled) and script URLs: a viewer's browser would call them with its cookie. */
const HOSTILE = [
  '/api/v1/auths/signout',
  '/auths/signout',
  'https://tracker.example/pixel.png',
  '//evil.example/x.png',
  'javascript:alert(1)',
  'data:text/html;base64,PHNjcmlwdD4=',
  'data:image/svg+xml,<svg onload=alert(1)>',
  '/api/v1/users/profile/image?path=x&next=/auths/signout',
  '/api/v1/auths/signout.png',
  '/API/V1/auths/signout.png',
  '/v1/models.png',
  '/compat/x.png',
  '/local/x.png',
  '/auths/x.png',
  '/img/../api/v1/auths/signout.png',
  '/img/%2e%2e/api/v1/x.png',
  '/static/favicon.png?next=/auths/signout',
  '/static/favicon.png#x',
  '/img\\..\\api\\x.png',
  '/img/x.html',
  '/img/x',
];
/** Relative paths to image files outside the API, as Open WebUI clients send them. */
const RELATIVE = ['/static/favicon.png', '/img/x.png', '/user.png', '/static/splash-dark.jpg', '/avatars/Team%20Logo.webp'];

describe('profile_image_url: inline images, stored images and relative image paths outside the API, wherever it is written', () => {
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

  it('refuses an absolute URL, an API route or a script URL on the own profile, naming the field, and keeps the picture', async () => {
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
    expect((await server.anon.post('/auths/signup', { name: 'S', email: 's@example.com', password: 'a-password', profile_image_url: bad })).status).toBe(400);
    expect((await server.as(admin.token).post('/auths/add', { name: 'A', email: 'a@example.com', password: 'a-password', role: 'user', profile_image_url: bad })).status).toBe(400);
    expect((await server.as(admin.token).post(`/api/v1/users/${user.id}/update`, { profile_image_url: bad })).status).toBe(422);
  });

  it('refuses them as a model picture on create and update, which every user of the model loads', async () => {
    const res = await server.as(user.token).post('/api/v1/models/create', { id: 'mallory-model', name: 'M', base_model_id: 'some-base', meta: { profile_image_url: '/api/v1/auths/signout' }, params: {} });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toMatch(/profile_image_url/);
    const made = await server.as(user.token).post('/api/v1/models/create', { id: 'plain-model', name: 'P', base_model_id: 'some-base', meta: {}, params: {} });
    expect(made.status).toBe(200);
    const update = await server.as(user.token).post('/api/v1/models/model/update?id=plain-model', { ...made.body, meta: { profile_image_url: 'https://tracker.example/p.png' } });
    expect(update.status).toBe(422);
    expect(JSON.stringify(update.body)).toMatch(/profile_image_url/);
  });

  it('accepts a data:image URL, an uploaded image path, relative image paths and the default on a profile', async () => {
    for (const url of [PNG, '/api/v1/users/profile/image?path=profile-images%2Fabc%2Fpic.png', ...RELATIVE, '']) {
      const res = await server.as(user.token).post('/api/v1/auths/update/profile', { name: 'User', profile_image_url: url });
      expect(res.status, url).toBe(200);
      expect(res.body.profile_image_url).toBe(url || '/user.png');
      expect((await server.as(admin.token).get(`/api/v1/users/${user.id}`)).body.profile_image_url, url).toBe(url || '/user.png');
    }
  });

  it('accepts relative image paths at sign-up, admin creation and admin update', async () => {
    const open = await startTestServer();
    try {
      const first = await open.anon.post('/auths/signup', { name: 'First', email: 'first@example.com', password: 'a-password', profile_image_url: '/img/first.png' });
      expect(first.status).toBe(200);
      expect(first.body.profile_image_url).toBe('/img/first.png');
      const added = await open.as(first.body.token).post('/auths/add', { name: 'Added', email: 'added@example.com', password: 'a-password', role: 'user', profile_image_url: '/static/favicon.png' });
      expect(added.status).toBe(200);
      expect((await open.as(first.body.token).get(`/api/v1/users/${added.body.id}`)).body.profile_image_url).toBe('/static/favicon.png');
      const updated = await open.as(first.body.token).post(`/api/v1/users/${added.body.id}/update`, { profile_image_url: '/img/x.png' });
      expect(updated.status).toBe(200);
      expect(updated.body.profile_image_url).toBe('/img/x.png');
    } finally {
      await open.close();
    }
  });

  it('creates and updates a model with Open WebUI clients’ default picture, /static/favicon.png', async () => {
    const created = await server.as(user.token).post('/api/v1/models/create', { id: 'owui-model', name: 'From a client', base_model_id: 'some-base', meta: { profile_image_url: '/static/favicon.png', description: 'made elsewhere' }, params: {} });
    expect(created.status).toBe(200);
    expect(created.body.meta.profile_image_url).toBe('/static/favicon.png');
    const updated = await server.as(user.token).post('/api/v1/models/model/update?id=owui-model', { ...created.body, meta: { ...created.body.meta, profile_image_url: '/img/x.png' } });
    expect(updated.status).toBe(200);
    expect((await server.as(user.token).get('/api/v1/models/model?id=owui-model')).body.meta.profile_image_url).toBe('/img/x.png');
  });

  it('serves /static/favicon.png as Parley’s icon, without signing in', async () => {
    const res = await fetch(`${server.url}/static/favicon.png`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/png/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(bytes.length).toBeGreaterThan(1000);
  });
});

describe('model import and export (admins): an import never fails for a picture', () => {
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

  it('creates new models, keeps an allowed picture and falls back to the default for a refused one', async () => {
    const res = await server.as(admin.token).post('/api/v1/models/import', {
      models: [
        { id: 'imp-favicon', name: 'Favicon', base_model_id: 'some-base', meta: { profile_image_url: '/static/favicon.png' }, params: { system: 'Be brief.' }, user_id: 'someone-else', created_at: 1 },
        { id: 'imp-absolute', name: 'Absolute', base_model_id: 'some-base', meta: { profile_image_url: 'https://cdn.example/logo.png', description: 'kept' }, params: {} },
        { id: 'imp-api', name: 'Api route', base_model_id: 'some-base', meta: { profile_image_url: '/api/v1/auths/signout' } },
        { id: 'imp-script', base_model_id: 'some-base', meta: { profile_image_url: 'javascript:alert(1)' } },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toBe(true);
    const byId = async (id: string) => (await server.as(admin.token).get(`/api/v1/models/model?id=${id}`)).body;
    expect((await byId('imp-favicon')).meta.profile_image_url).toBe('/static/favicon.png');
    expect((await byId('imp-favicon')).params.system).toBe('Be brief.');
    expect((await byId('imp-favicon')).user_id).toBe(admin.id);
    const absolute = await byId('imp-absolute');
    expect(absolute.meta.profile_image_url).toBeUndefined();
    expect(absolute.meta.description).toBe('kept');
    expect((await byId('imp-api')).meta.profile_image_url).toBeUndefined();
    expect((await byId('imp-script')).name).toBe('imp-script');
  });

  it('updates an existing model with the fields given and keeps the rest', async () => {
    await server.as(admin.token).post('/api/v1/models/create', { id: 'imp-existing', name: 'Before', base_model_id: 'some-base', meta: { description: 'old' }, params: { system: 'old system' } });
    const res = await server.as(admin.token).post('/api/v1/models/import', { models: [{ id: 'imp-existing', name: 'After', meta: { description: 'new', profile_image_url: '//evil.example/x.png' } }] });
    expect(res.status).toBe(200);
    const model = (await server.as(admin.token).get('/api/v1/models/model?id=imp-existing')).body;
    expect(model).toMatchObject({ name: 'After', base_model_id: 'some-base', params: { system: 'old system' }, meta: { description: 'new' } });
    expect(model.meta.profile_image_url).toBeUndefined();
  });

  it('round-trips an export', async () => {
    const exported = await server.as(admin.token).get('/api/v1/models/export');
    expect(exported.status).toBe(200);
    expect(exported.body.map((m: { id: string }) => m.id)).toEqual(expect.arrayContaining(['imp-favicon', 'imp-existing']));
    const again = await server.as(admin.token).post('/api/v1/models/import', { models: exported.body });
    expect(again.status).toBe(200);
  });

  it('is for admins only', async () => {
    expect((await server.anon.post('/api/v1/models/import', { models: [] })).status).toBe(401);
    expect((await server.as(user.token).post('/api/v1/models/import', { models: [] })).status).toBe(403);
    expect((await server.as(user.token).get('/api/v1/models/export')).status).toBe(403);
    expect((await server.anon.get('/api/v1/models/export')).status).toBe(401);
  });

  it('refuses a malformed body, naming what is wrong (but never the picture)', async () => {
    const notList = await server.as(admin.token).post('/api/v1/models/import', { models: 'all' });
    expect([400, 422]).toContain(notList.status);
    expect(notList.body.detail).toMatch(/models/);
    const noId = await server.as(admin.token).post('/api/v1/models/import', { models: [{ name: 'No id', meta: { profile_image_url: 'https://x.example/a.png' } }] });
    expect([400, 422]).toContain(noId.status);
    expect(noId.body.detail).toMatch(/id/);
    expect(noId.body.detail).not.toMatch(/profile_image_url/);
  });
});
