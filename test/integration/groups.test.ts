import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';

const G = '/api/v1/groups';
const ALL_FALSE = {
  workspace: { models: false, knowledge: false, prompts: false, tools: false },
  sharing: { public_models: false, public_knowledge: false, public_tools: false, public_notes: false },
  chat: { file_upload: false, delete: false, share: false, export: false, stt: false, tts: false },
  features: { web_search: false, image_generation: false, code_interpreter: false, notes: false, memories: false, channels: false },
};

describe('groups', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let pending: TestUser;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin, 'user', 'Alice');
    bob = await buildUser(server, admin, 'user', 'Bob');
    carol = await buildUser(server, admin, 'user', 'Carol');
    pending = await buildUser(server, admin, 'pending', 'Pending');
  });
  afterAll(async () => {
    await server.close();
  });

  const create = (body: unknown) => server.as(admin.token).post(`${G}/create`, body);

  it('creates a group with no members and answers the Group', async () => {
    const res = await create({ name: '  Engineering ', description: 'Builders', permissions: { workspace: { tools: true } } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Engineering',
      description: 'Builders',
      permissions: { workspace: { tools: true } },
      user_ids: [],
      created_at: expect.any(Number),
      updated_at: expect.any(Number),
    });
    const fetched = await server.as(admin.token).get(`${G}/id/${res.body.id}`);
    expect(fetched.body).toEqual(res.body);
    const minimal = await create({ name: 'Minimal' });
    expect(minimal.body).toMatchObject({ description: '', permissions: {}, user_ids: [] });
  });

  it('refuses bad group bodies with 422 naming the field', async () => {
    const noName = await create({ description: 'x' });
    expect(noName.status).toBe(422);
    expect(noName.body.detail).toContain('name');
    expect((await create({ name: '   ' })).status).toBe(422);
    const badPerm = await create({ name: 'X', permissions: { workspace: { tools: 'yes' } } });
    expect(badPerm.status).toBe(422);
    expect(badPerm.body.detail).toContain('permissions.workspace.tools');
    expect((await server.as(admin.token).raw('POST', `${G}/create`, '{', { 'content-type': 'application/json' })).status).toBe(400);
  });

  it('keeps group management for admins, checked before the body', async () => {
    const g = await create({ name: 'Locked' });
    for (const who of [alice, pending]) {
      const as = server.as(who.token);
      expect((await as.post(`${G}/create`, { bad: true })).status).toBe(403);
      expect((await as.get(`${G}/id/${g.body.id}`)).status).toBe(403);
      expect((await as.post(`${G}/id/${g.body.id}/update`, { name: 'x' })).status).toBe(403);
      expect((await as.post(`${G}/id/${g.body.id}/users/add`, { user_ids: [who.id] })).status).toBe(403);
      expect((await as.post(`${G}/id/${g.body.id}/users/remove`, { user_ids: [] })).status).toBe(403);
      expect((await as.delete(`${G}/id/${g.body.id}/delete`)).status).toBe(403);
    }
    expect((await server.anon.get(`${G}/`)).status).toBe(401);
    expect((await server.as(pending.token).get(`${G}/`)).status).toBe(403);
  });

  it('shows admins every group and others only their own', async () => {
    const mine = await create({ name: 'Alice’s team' });
    await server.as(admin.token).post(`${G}/id/${mine.body.id}/users/add`, { user_ids: [alice.id] });
    const adminList = await server.as(admin.token).get(`${G}/`);
    expect(adminList.status).toBe(200);
    expect(adminList.body.length).toBeGreaterThanOrEqual(3);
    const aliceList = await server.as(alice.token).get(`${G}/`);
    expect(aliceList.body.map((g: { id: string }) => g.id)).toEqual([mine.body.id]);
    expect((await server.as(bob.token).get(G)).body).toEqual([]);
  });

  it('replaces the members on update and answers the updated group', async () => {
    const g = await create({ name: 'Rotating', description: 'first' });
    await server.as(admin.token).post(`${G}/id/${g.body.id}/users/add`, { user_ids: [alice.id, bob.id] });
    const res = await server.as(admin.token).post(`${G}/id/${g.body.id}/update`, {
      name: 'Rotating 2',
      description: 'second',
      user_ids: [carol.id, bob.id, carol.id],
      permissions: { chat: { share: true } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: g.body.id, name: 'Rotating 2', description: 'second', permissions: { chat: { share: true } } });
    expect([...res.body.user_ids].sort()).toEqual([bob.id, carol.id].sort());
    const keep = await server.as(admin.token).post(`${G}/id/${g.body.id}/update`, { name: 'Rotating 3' });
    expect(keep.body).toMatchObject({ name: 'Rotating 3', description: 'second', permissions: { chat: { share: true } } });
    expect(keep.body.user_ids).toHaveLength(2);
    const empty = await server.as(admin.token).post(`${G}/id/${g.body.id}/update`, { user_ids: [] });
    expect(empty.body.user_ids).toEqual([]);
  });

  it('adds members keeping the existing ones, and removes members', async () => {
    const g = await create({ name: 'Growing' });
    const first = await server.as(admin.token).post(`${G}/id/${g.body.id}/users/add`, { user_ids: [alice.id] });
    expect(first.status).toBe(200);
    expect(first.body.user_ids).toEqual([alice.id]);
    const second = await server.as(admin.token).post(`${G}/id/${g.body.id}/users/add`, { user_ids: [bob.id, alice.id] });
    expect([...second.body.user_ids].sort()).toEqual([alice.id, bob.id].sort());
    expect(second.body).toMatchObject({ id: g.body.id, name: 'Growing' });
    const removed = await server.as(admin.token).post(`${G}/id/${g.body.id}/users/remove`, { user_ids: [alice.id, 'not-a-member'] });
    expect(removed.status).toBe(200);
    expect(removed.body.user_ids).toEqual([bob.id]);
  });

  it('refuses unknown user ids with 400 naming them, changing nothing', async () => {
    const g = await create({ name: 'Strict' });
    await server.as(admin.token).post(`${G}/id/${g.body.id}/users/add`, { user_ids: [alice.id] });
    const add = await server.as(admin.token).post(`${G}/id/${g.body.id}/users/add`, { user_ids: [bob.id, 'ghost-1'] });
    expect(add.status).toBe(400);
    expect(add.body.detail).toContain('ghost-1');
    const update = await server.as(admin.token).post(`${G}/id/${g.body.id}/update`, { user_ids: ['ghost-2'] });
    expect(update.status).toBe(400);
    expect((await server.as(admin.token).get(`${G}/id/${g.body.id}`)).body.user_ids).toEqual([alice.id]);
    const notArray = await server.as(admin.token).post(`${G}/id/${g.body.id}/users/add`, { user_ids: alice.id });
    expect(notArray.status).toBe(422);
    expect(notArray.body.detail).toContain('user_ids');
  });

  it('answers 404 for unknown group ids everywhere', async () => {
    const as = server.as(admin.token);
    expect((await as.get(`${G}/id/nope`)).status).toBe(404);
    expect((await as.post(`${G}/id/nope/update`, { name: 'x' })).status).toBe(404);
    expect((await as.post(`${G}/id/nope/users/add`, { user_ids: [alice.id] })).status).toBe(404);
    expect((await as.post(`${G}/id/nope/users/remove`, { user_ids: [alice.id] })).status).toBe(404);
    const del = await as.delete(`${G}/id/nope/delete`);
    expect(del.status).toBe(404);
    expect(del.body.detail).toMatch(/group not found/i);
  });

  it('deletes a group, answering true, and its members stay', async () => {
    const g = await create({ name: 'Doomed' });
    await server.as(admin.token).post(`${G}/id/${g.body.id}/users/add`, { user_ids: [alice.id] });
    const res = await server.as(admin.token).delete(`${G}/id/${g.body.id}/delete`);
    expect(res.status).toBe(200);
    expect(res.body).toBe(true);
    expect((await server.as(admin.token).get(`${G}/id/${g.body.id}`)).status).toBe(404);
    expect((await server.as(alice.token).get('/api/v1/users/groups')).body.map((x: { id: string }) => x.id)).not.toContain(g.body.id);
    expect((await server.as(alice.token).get('/api/v1/auths/')).status).toBe(200);
  });
});

describe('permissions through defaults and groups', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let pending: TestUser;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin, 'user', 'Alice');
    bob = await buildUser(server, admin, 'user', 'Bob');
    pending = await buildUser(server, admin, 'pending', 'Pending');
  });
  afterAll(async () => {
    await server.close();
  });

  const perms = (u: TestUser) => server.as(u.token).get('/api/v1/users/permissions');

  it('gives users the system defaults and admins everything', async () => {
    const defaults = await server.as(admin.token).get('/api/v1/users/default/permissions');
    expect(defaults.status).toBe(200);
    expect(defaults.body.workspace.tools).toBe(false);
    const mine = await perms(alice);
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual(defaults.body);
    const adminPerms = await perms(admin);
    for (const area of Object.values(adminPerms.body as Record<string, Record<string, boolean>>)) {
      for (const value of Object.values(area)) expect(value).toBe(true);
    }
    expect((await perms(pending)).status).toBe(403);
    expect((await server.anon.get('/api/v1/users/permissions')).status).toBe(401);
  });

  it('grants a permission when any of the user’s groups grants it, and only to members', async () => {
    const g = await server.as(admin.token).post('/api/v1/groups/create', { name: 'Toolsmiths', permissions: { workspace: { tools: true }, sharing: { public_tools: true } } });
    await server.as(admin.token).post(`/api/v1/groups/id/${g.body.id}/users/add`, { user_ids: [alice.id] });
    const a = await perms(alice);
    expect(a.body.workspace.tools).toBe(true);
    expect(a.body.sharing.public_tools).toBe(true);
    expect(a.body.sharing.public_models).toBe(false);
    expect((await perms(bob)).body.workspace.tools).toBe(false);
    const session = await server.as(alice.token).get('/api/v1/auths/');
    expect(session.body.permissions.workspace.tools).toBe(true);

    // a group saying false does not take away what the defaults grant
    const deny = await server.as(admin.token).post('/api/v1/groups/create', { name: 'Deniers', permissions: { chat: { delete: false } } });
    await server.as(admin.token).post(`/api/v1/groups/id/${deny.body.id}/users/add`, { user_ids: [bob.id] });
    expect((await perms(bob)).body.chat.delete).toBe(true);

    await server.as(admin.token).post(`/api/v1/groups/id/${g.body.id}/users/remove`, { user_ids: [alice.id] });
    expect((await perms(alice)).body.workspace.tools).toBe(false);
    await server.as(admin.token).post(`/api/v1/groups/id/${g.body.id}/users/add`, { user_ids: [alice.id] });
    await server.as(admin.token).post(`/api/v1/groups/id/${g.body.id}/update`, { permissions: { workspace: { tools: false } } });
    expect((await perms(alice)).body.workspace.tools).toBe(false);
    await server.as(admin.token).post(`/api/v1/groups/id/${g.body.id}/update`, { permissions: { workspace: { tools: true } } });
    expect((await perms(alice)).body.workspace.tools).toBe(true);
    await server.as(admin.token).delete(`/api/v1/groups/id/${g.body.id}/delete`);
    expect((await perms(alice)).body.workspace.tools).toBe(false);
  });

  it('lets admins replace the default set, which applies to everyone at once', async () => {
    const set = await server.as(admin.token).post('/api/v1/users/default/permissions', ALL_FALSE);
    expect(set.status).toBe(200);
    expect(set.body).toEqual(ALL_FALSE);
    expect((await server.as(admin.token).get('/api/v1/users/default/permissions')).body).toEqual(ALL_FALSE);
    expect((await perms(bob)).body).toEqual(ALL_FALSE);
    const g = await server.as(admin.token).post('/api/v1/groups/create', { name: 'Uploaders', permissions: { chat: { file_upload: true } } });
    await server.as(admin.token).post(`/api/v1/groups/id/${g.body.id}/users/add`, { user_ids: [bob.id] });
    expect((await perms(bob)).body.chat).toEqual({ file_upload: true, delete: false, share: false, export: false, stt: false, tts: false });
    expect((await perms(admin)).body.chat.file_upload).toBe(true);
  });

  it('reads a Permissions object saved before notes, memories, channels and voice existed: the keys added later take their defaults', async () => {
    const older = { ...ALL_FALSE, sharing: { public_models: false, public_knowledge: false, public_tools: false }, chat: { file_upload: false, delete: false, share: false, export: false }, features: { web_search: false, image_generation: false, code_interpreter: false } };
    const set = await server.as(admin.token).post('/api/v1/users/default/permissions', older);
    expect(set.status).toBe(200);
    const read = (await server.as(admin.token).get('/api/v1/users/default/permissions')).body;
    expect(read.features).toEqual({ ...older.features, notes: true, memories: true, channels: true });
    expect(read.sharing.public_notes).toBe(false);
    expect(read.chat).toEqual({ ...older.chat, stt: true, tts: true });
    await server.as(admin.token).post('/api/v1/users/default/permissions', ALL_FALSE);
  });

  it('requires a full Permissions object, naming the missing field with 422', async () => {
    const partial = await server.as(admin.token).post('/api/v1/users/default/permissions', { workspace: { models: true } });
    expect(partial.status).toBe(422);
    expect(partial.body.detail).toMatch(/workspace\.knowledge|sharing/);
    const wrongType = await server.as(admin.token).post('/api/v1/users/default/permissions', { ...ALL_FALSE, features: { ...ALL_FALSE.features, web_search: 'on' } });
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.detail).toContain('features.web_search');
  });

  it('keeps the default set for admins', async () => {
    for (const who of [alice, pending]) {
      expect((await server.as(who.token).get('/api/v1/users/default/permissions')).status).toBe(403);
      expect((await server.as(who.token).post('/api/v1/users/default/permissions', ALL_FALSE)).status).toBe(403);
    }
    expect((await server.anon.get('/api/v1/users/default/permissions')).status).toBe(401);
  });
});
