import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * One test per row of the interface's refusal statuses (the table in docs/api-notes.md): the
 * status each refusal answers.
 * Two rows are covered where their setup lives: `POST tool_servers/verify` 403 (a server refusing
 * the credentials) in mcp.test.ts, and `POST /models/model/toggle` 400 (a model vanishing between
 * the checks and the write) cannot be provoked from outside.
 */
describe('the interface\'s refusal statuses', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let noModels: TestUser;
  const LIMIT = 64 * 1024;

  beforeAll(async () => {
    server = await startTestServer({ envVars: { PARLEY_MAX_UPLOAD_BYTES: String(LIMIT) } });
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin, 'user', 'Alice');
    bob = await buildUser(server, admin, 'user', 'Bob');
    noModels = await buildUser(server, admin, 'user', 'NoModels');
  });
  afterAll(async () => {
    await server?.close();
  });

  const as = (user: TestUser) => server.as(user.token);
  const upload = (user: TestUser, name: string, data: string | Uint8Array, type = 'text/plain') => {
    const form = new FormData();
    form.append('files', new Blob([data], { type }), name);
    return as(user).raw('POST', '/api/v1/chats/attachment/upload', form);
  };

  it('POST /auths/signup: 400 for an email in use or an invalid one', async () => {
    expect((await server.anon.post('/auths/signup', { name: 'X', email: admin.email, password: 'a-password' })).status).toBe(400);
    expect((await server.anon.post('/auths/signup', { name: 'X', email: 'not-an-email', password: 'a-password' })).status).toBe(400);
  });

  it('POST /auths/signup: 403 while sign-up is disabled', async () => {
    await as(admin).post('/auths/admin/config', { ENABLE_SIGNUP: false });
    try {
      expect((await server.anon.post('/auths/signup', { name: 'X', email: 'closed@example.com', password: 'a-password' })).status).toBe(403);
    } finally {
      await as(admin).post('/auths/admin/config', { ENABLE_SIGNUP: true });
    }
  });

  it('POST /auths/signin: 400 for a wrong email or password', async () => {
    expect((await server.anon.post('/auths/signin', { email: admin.email, password: 'wrong' })).status).toBe(400);
    expect((await server.anon.post('/auths/signin', { email: 'nobody@example.com', password: 'pw' })).status).toBe(400);
  });

  it('GET /auths/: 401 for an invalid token', async () => {
    expect((await server.as('not.a.token').get('/auths/')).status).toBe(401);
  });

  it('POST /auths/add: 400 for an email in use', async () => {
    expect((await as(admin).post('/auths/add', { name: 'A', email: alice.email, password: 'a-password', role: 'user' })).status).toBe(400);
  });

  it('POST /auths/api_key: 403 while API keys are disabled', async () => {
    await as(admin).post('/auths/admin/config', { ENABLE_API_KEY: false });
    try {
      expect((await as(alice).post('/auths/api_key')).status).toBe(403);
    } finally {
      await as(admin).post('/auths/admin/config', { ENABLE_API_KEY: true });
    }
  });

  it('GET /auths/api_key: 404 before a key exists', async () => {
    expect((await as(bob).get('/auths/api_key')).status).toBe(404);
  });

  it('POST /auths/update/password: 400 for a wrong current password', async () => {
    expect((await as(bob).post('/auths/update/password', { password: 'wrong', new_password: 'new-password' })).status).toBe(400);
  });

  it('POST /auths/update/password: 403 while sign-in is handled by SSO', async () => {
    const sso = await startTestServer({ envVars: { PARLEY_TRUSTED_EMAIL_HEADER: 'X-Email', PARLEY_TRUSTED_PROXIES: '10.0.0.1' } });
    try {
      const owner = await signupAdmin(sso);
      expect((await sso.as(owner.token).post('/auths/update/password', { password: owner.password, new_password: 'new-password' })).status).toBe(403);
    } finally {
      await sso.close();
    }
  });

  it('admin config GET/POST: 403 without the admin role', async () => {
    expect((await as(alice).get('/auths/admin/config')).status).toBe(403);
    expect((await as(alice).post('/auths/admin/config', { ENABLE_SIGNUP: false })).status).toBe(403);
  });

  it('POST admin config: 400 for an invalid value', async () => {
    expect((await as(admin).post('/auths/admin/config', { DEFAULT_USER_ROLE: 'emperor' })).status).toBe(400);
  });

  it('POST /users/user/profile/image: 400 for a file that is not an image', async () => {
    const form = new FormData();
    form.append('file', new Blob(['plain text'], { type: 'text/plain' }), 'note.txt');
    expect((await as(alice).raw('POST', '/api/v1/users/user/profile/image', form)).status).toBe(400);
  });

  it('POST /users/{id}/update: 403 for the primary admin or without the rights', async () => {
    const other = await buildUser(server, admin, 'admin', 'Second admin');
    expect((await as(other).post(`/api/v1/users/${admin.id}/update`, { name: 'Renamed' })).status).toBe(403);
    expect((await as(alice).post(`/api/v1/users/${bob.id}/update`, { name: 'Renamed' })).status).toBe(403);
  });

  it('DELETE /users/{id}: 403 for the primary admin or oneself', async () => {
    const other = await buildUser(server, admin, 'admin', 'Third admin');
    expect((await as(other).delete(`/api/v1/users/${admin.id}`)).status).toBe(403);
    expect((await as(other).delete(`/api/v1/users/${other.id}`)).status).toBe(403);
  });

  it('DELETE /users/{id}: 404 for a missing user', async () => {
    expect((await as(admin).delete('/api/v1/users/no-such-user')).status).toBe(404);
  });

  it('GET /groups/id/{id} and DELETE /groups/id/{id}/delete: 404 for a missing group', async () => {
    expect((await as(admin).get('/api/v1/groups/id/no-such-group')).status).toBe(404);
    expect((await as(admin).delete('/api/v1/groups/id/no-such-group/delete')).status).toBe(404);
  });

  it('GET /models/model: 401 for a missing model or one the caller may not read', async () => {
    await as(alice).post('/api/v1/models/create', { id: 'alice-private', name: 'Private', base_model_id: 'base', access_control: {} });
    expect((await as(bob).get('/api/v1/models/model?id=no-such-model')).status).toBe(401);
    expect((await as(bob).get('/api/v1/models/model?id=alice-private')).status).toBe(401);
  });

  it('POST /models/create: 401 for an id in use', async () => {
    await as(alice).post('/api/v1/models/create', { id: 'taken-id', name: 'T', base_model_id: 'base' });
    expect((await as(bob).post('/api/v1/models/create', { id: 'taken-id', name: 'T', base_model_id: 'base' })).status).toBe(401);
  });

  it('POST /models/create: 403 without the models permission', async () => {
    const defaults = (await as(admin).get('/api/v1/users/default/permissions')).body;
    expect((await as(admin).post('/api/v1/users/default/permissions', { ...defaults, workspace: { ...defaults.workspace, models: false } })).status).toBe(200);
    try {
      expect((await as(noModels).post('/api/v1/models/create', { id: 'nope', name: 'N', base_model_id: 'base' })).status).toBe(403);
    } finally {
      await as(admin).post('/api/v1/users/default/permissions', defaults);
    }
  });

  it('POST /models/model/update: 400 without write access, readable or not', async () => {
    const body = (await as(alice).get('/api/v1/models/model?id=alice-private')).body;
    expect((await as(bob).post('/api/v1/models/model/update?id=alice-private', body)).status).toBe(400);
    await as(alice).post('/api/v1/models/create', { id: 'alice-public', name: 'Public', base_model_id: 'base', access_control: null });
    const publicBody = (await as(alice).get('/api/v1/models/model?id=alice-public')).body;
    expect((await as(bob).post('/api/v1/models/model/update?id=alice-public', publicBody)).status).toBe(400);
  });

  it('POST /models/model/update: 401 for a missing model', async () => {
    const body = (await as(alice).get('/api/v1/models/model?id=alice-public')).body;
    expect((await as(bob).post('/api/v1/models/model/update?id=no-such-model', { ...body, id: 'no-such-model' })).status).toBe(401);
  });

  it('POST /models/model/toggle: 401 when not authorized', async () => {
    expect((await as(bob).post('/api/v1/models/model/toggle?id=alice-public')).status).toBe(401);
  });

  it('DELETE /models/model/delete: 401 for a missing model or without rights', async () => {
    expect((await as(bob).delete('/api/v1/models/model/delete?id=alice-public')).status).toBe(401);
    expect((await as(bob).delete('/api/v1/models/model/delete?id=no-such-model')).status).toBe(401);
  });

  it('GET /chats/{id}: 404 for a missing chat', async () => {
    expect((await as(alice).get('/api/v1/chats/no-such-chat')).status).toBe(404);
  });

  it("GET /chats/{id}: 403 for someone else's chat", async () => {
    const chat = await as(alice).post('/api/v1/chats/new', { chat: { title: 'mine' } });
    expect((await as(bob).get(`/api/v1/chats/${chat.body.id}`)).status).toBe(403);
  });

  it('POST /api/chat/completions: 400 for invalid parameters', async () => {
    expect((await as(alice).post('/api/chat/completions', { model: 'x', messages: 'not a list' })).status).toBe(400);
  });

  it('POST /api/chat/completions: 401 without a token', async () => {
    expect((await server.anon.post('/api/chat/completions', { model: 'x', messages: [] })).status).toBe(401);
  });

  it('POST chats/attachment/upload: 400 for a file type that is not allowed', async () => {
    expect((await upload(alice, 'blob.bin', new Uint8Array([0x00, 0x01, 0xfe, 0xff, 0x00, 0x10]), 'application/octet-stream')).status).toBe(400);
  });

  it('POST chats/attachment/upload: 413 for a file over the limit', async () => {
    expect((await upload(alice, 'big.txt', 'x'.repeat(LIMIT + 1))).status).toBe(413);
  });

  it('DELETE chats/attachment/{file_id}: 404 for a missing file', async () => {
    expect((await as(alice).delete('/api/v1/chats/attachment/no-such-file')).status).toBe(404);
  });

  it("DELETE chats/attachment/{file_id}: 403 for someone else's file", async () => {
    const uploaded = await upload(alice, 'a.txt', 'hello');
    expect((await as(bob).delete(`/api/v1/chats/attachment/${uploaded.body[0].id}`)).status).toBe(403);
  });

  it('POST /tools/create: 400 for an invalid tool', async () => {
    expect((await as(admin).post('/api/v1/tools/create', { id: 'bad tool id!', name: 'x', type: 'nonsense' })).status).toBe(400);
  });

  it('POST /tools/create: 403 without the admin role', async () => {
    expect((await as(alice).post('/api/v1/tools/create', { id: 't1', name: 'x', type: 'api', config: {} })).status).toBe(403);
  });

  it('GET /tools/{id}: 404 for a missing tool', async () => {
    expect((await as(alice).get('/api/v1/tools/no-such-tool')).status).toBe(404);
  });

  it('POST tool_servers/verify: 400 for a server that cannot be reached', async () => {
    expect((await as(admin).post('/api/v1/configs/tool_servers/verify', { url: 'http://127.0.0.1:9/mcp', type: 'mcp', auth_type: 'none' })).status).toBe(400);
  });
});
