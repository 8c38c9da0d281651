import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PERMISSIONS } from '../../server/contracts/permissions';
import { buildUser, createGroupInDb, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';

const q = (id: string) => `?id=${encodeURIComponent(id)}`;

/** A full create/update body. */
function modelBody(id: string, overrides: Record<string, unknown> = {}) {
  return {
    id,
    name: `Model ${id}`,
    base_model_id: 'gpt-fake',
    params: { system: 'You are terse.', temperature: 0.3 },
    meta: { description: 'A test model', capabilities: { vision: false }, knowledge: [], toolIds: [], tags: [] },
    access_control: null,
    is_active: true,
    ...overrides,
  };
}

describe('custom models (4.4)', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let groupId: string;

  const createGroup = (members: TestUser[], permissions: Record<string, unknown> = {}) => createGroupInDb(server, members, permissions);

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin, 'user', 'Alice');
    bob = await buildUser(server, admin, 'user', 'Bob');
    carol = await buildUser(server, admin, 'user', 'Carol');
    groupId = await createGroup([bob]);
  });
  afterAll(async () => {
    await server.close();
  });

  describe('create', () => {
    it('creates a model owned by the caller and returns it without a user field', async () => {
      const res = await server.as(admin.token).post('/api/v1/models/create', modelBody('admin-model'));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...modelBody('admin-model'),
        user_id: admin.id,
        created_at: expect.any(Number),
        updated_at: expect.any(Number),
      });
      expect(res.body.user).toBeUndefined();
    });

    it('fills defaults for omitted optional fields', async () => {
      const res = await server.as(admin.token).post('/api/v1/models/create', { id: 'minimal', name: 'Minimal' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ base_model_id: null, params: {}, meta: {}, access_control: null, is_active: true });
    });

    it('lets a user with the default workspace.models permission create, but not make the model public', async () => {
      const res = await server.as(alice.token).post('/api/v1/models/create', modelBody('alice-model'));
      expect(res.status).toBe(200);
      expect(res.body.user_id).toBe(alice.id);
      // Public sharing is off by default: a null (public) list is stored as private.
      expect(res.body.access_control).toEqual({});
    });

    it('keeps a null access list for users whose group grants public model sharing', async () => {
      const sharer = await buildUser(server, admin, 'user');
      await createGroup([sharer], { sharing: { public_models: true } });
      const res = await server.as(sharer.token).post('/api/v1/models/create', modelBody('shared-publicly'));
      expect(res.status).toBe(200);
      expect(res.body.access_control).toBeNull();
    });

    it('refuses a duplicate id with 401', async () => {
      const res = await server.as(alice.token).post('/api/v1/models/create', modelBody('admin-model'));
      expect(res.status).toBe(401);
      expect(res.body.detail).toMatch(/already exists/);
    });

    it('refuses users without the workspace.models permission with 403, before looking at the body', async () => {
      await server.services.permissions.setDefaults({ ...DEFAULT_PERMISSIONS, workspace: { ...DEFAULT_PERMISSIONS.workspace, models: false } });
      try {
        const res = await server.as(carol.token).post('/api/v1/models/create', modelBody('carol-model'));
        expect(res.status).toBe(403);
        expect((await server.as(carol.token).post('/api/v1/models/create', { id: 42 })).status).toBe(403);
        // A group can grant it back.
        const granted = await buildUser(server, admin, 'user');
        await createGroup([granted], { workspace: { models: true } });
        expect((await server.as(granted.token).post('/api/v1/models/create', modelBody('granted-model'))).status).toBe(200);
        // Admins always may.
        expect((await server.as(admin.token).post('/api/v1/models/create', modelBody('admin-model-2'))).status).toBe(200);
      } finally {
        await server.services.permissions.setDefaults(DEFAULT_PERMISSIONS);
      }
    });

    it('refuses anonymous callers with 401 and pending accounts with 403', async () => {
      const pending = await buildUser(server, admin, 'pending');
      expect((await server.anon.post('/api/v1/models/create', modelBody('x'))).status).toBe(401);
      expect((await server.as(pending.token).post('/api/v1/models/create', modelBody('x'))).status).toBe(403);
      expect((await server.as(pending.token).get('/api/v1/models/list')).status).toBe(403);
    });

    it('answers invalid bodies with 422 naming the field', async () => {
      const as = server.as(admin.token);
      const noName = await as.post('/api/v1/models/create', { id: 'no-name' });
      expect(noName.status).toBe(422);
      expect(noName.body.detail).toMatch(/name/);
      const badId = await as.post('/api/v1/models/create', modelBody('bad\nid'));
      expect(badId.status).toBe(422);
      expect(badId.body.detail).toMatch(/id/);
      const badAcl = await as.post('/api/v1/models/create', modelBody('bad-acl', { access_control: { read: { user_ids: 'everyone' } } }));
      expect(badAcl.status).toBe(422);
      expect(badAcl.body.detail).toMatch(/access_control/);
      const selfBase = await as.post('/api/v1/models/create', modelBody('loop', { base_model_id: 'loop' }));
      expect(selfBase.status).toBe(422);
      const malformed = await as.raw('POST', '/api/v1/models/create', '{"id":', { 'content-type': 'application/json' });
      expect(malformed.status).toBe(400);
    });
  });

  describe('ids with slashes', () => {
    const id = 'team/gpt-4o:latest';

    it('are created, read, updated, toggled and deleted through the id query parameter', async () => {
      const as = server.as(admin.token);
      expect((await as.post('/api/v1/models/create', modelBody(id))).status).toBe(200);
      const got = await as.get(`/api/v1/models/model${q(id)}`);
      expect(got.status).toBe(200);
      expect(got.body.id).toBe(id);
      expect((await as.get(`/api/v1/models/list${q(id)}`)).body.map((m: { id: string }) => m.id)).toEqual([id]);
      const updated = await as.post(`/api/v1/models/model/update${q(id)}`, modelBody(id, { name: 'Renamed' }));
      expect(updated.status).toBe(200);
      expect(updated.body.name).toBe('Renamed');
      expect((await as.post(`/api/v1/models/model/toggle${q(id)}`)).body.is_active).toBe(false);
      const deleted = await as.delete(`/api/v1/models/model/delete${q(id)}`);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toBe(true);
      expect((await as.get(`/api/v1/models/model${q(id)}`)).status).toBe(401);
    });

    it('need the id query parameter (422 without it)', async () => {
      const res = await server.as(admin.token).get('/api/v1/models/model');
      expect(res.status).toBe(422);
      expect(res.body.detail).toMatch(/id/);
    });
  });

  describe('access control', () => {
    beforeAll(async () => {
      const as = server.as(alice.token);
      // Private, readable by Bob's group, writable by Carol.
      await as.post('/api/v1/models/create', modelBody('acl-group-read', { access_control: { read: { group_ids: [groupId], user_ids: [] }, write: { group_ids: [], user_ids: [carol.id] } } }));
      // Private to Alice alone.
      await as.post('/api/v1/models/create', modelBody('acl-private', { access_control: {} }));
      // Writable by Bob's group.
      await as.post('/api/v1/models/create', modelBody('acl-group-write', { access_control: { read: { group_ids: [], user_ids: [] }, write: { group_ids: [groupId], user_ids: [] } } }));
      // Public (created by the admin: users cannot publish by default).
      await server.as(admin.token).post('/api/v1/models/create', modelBody('acl-public'));
    });

    const listIds = async (user: TestUser) => ((await server.as(user.token).get('/api/v1/models/list')).body as Array<{ id: string }>).map((m) => m.id);

    it('lists for each caller only what they own or may read; admins see everything', async () => {
      const forAlice = await listIds(alice);
      expect(forAlice).toEqual(expect.arrayContaining(['acl-group-read', 'acl-private', 'acl-group-write', 'acl-public', 'alice-model']));
      const forBob = await listIds(bob);
      expect(forBob).toEqual(expect.arrayContaining(['acl-group-read', 'acl-group-write', 'acl-public']));
      expect(forBob).not.toContain('acl-private');
      expect(forBob).not.toContain('alice-model');
      const forCarol = await listIds(carol);
      expect(forCarol).toEqual(expect.arrayContaining(['acl-group-read', 'acl-public']));
      expect(forCarol).not.toContain('acl-group-write');
      expect(forCarol).not.toContain('acl-private');
      const forAdmin = await listIds(admin);
      expect(forAdmin).toEqual(expect.arrayContaining(['acl-group-read', 'acl-private', 'acl-group-write', 'acl-public', 'alice-model']));
    });

    it('shows each list entry with its owner (id, name, email, role)', async () => {
      const res = await server.as(bob.token).get(`/api/v1/models/list${q('acl-group-read')}`);
      expect(res.body).toHaveLength(1);
      expect(res.body[0].user).toEqual({ id: alice.id, name: 'Alice', email: alice.email, role: 'user' });
      expect(res.body[0].access_control).toEqual({ read: { group_ids: [groupId], user_ids: [] }, write: { group_ids: [], user_ids: [carol.id] } });
    });

    it('answers a private model exactly like a missing one (401), so its id does not leak', async () => {
      const privateRes = await server.as(bob.token).get(`/api/v1/models/model${q('acl-private')}`);
      const missingRes = await server.as(bob.token).get(`/api/v1/models/model${q('no-such-model')}`);
      expect(privateRes.status).toBe(401);
      expect(missingRes.status).toBe(401);
      expect(privateRes.body).toEqual(missingRes.body);
      expect((await server.as(bob.token).get(`/api/v1/models/list${q('acl-private')}`)).body).toEqual([]);
      const toggle = await server.as(bob.token).post(`/api/v1/models/model/toggle${q('acl-private')}`, modelBody('acl-private'));
      expect(toggle.status).toBe(401);
      expect(toggle.body.detail).toBe('Model not found');
      // The interface's refusal statuses: an update without write access is 400 ("access forbidden"), a missing model 401.
      expect((await server.as(bob.token).post(`/api/v1/models/model/update${q('acl-private')}`, modelBody('acl-private'))).status).toBe(400);
      expect((await server.as(bob.token).post(`/api/v1/models/model/update${q('no-such-model')}`, modelBody('no-such-model'))).status).toBe(401);
      expect((await server.as(bob.token).delete(`/api/v1/models/model/delete${q('acl-private')}`)).status).toBe(401);
    });

    it('lets group members read a model shared with their group', async () => {
      const res = await server.as(bob.token).get(`/api/v1/models/model${q('acl-group-read')}`);
      expect(res.status).toBe(200);
      expect(res.body.user).toBeUndefined();
      expect((await server.as(carol.token).get(`/api/v1/models/model${q('acl-group-read')}`)).status).toBe(200);
      expect((await server.as(carol.token).get(`/api/v1/models/model${q('acl-public')}`)).status).toBe(200);
    });

    it('refuses update by a reader without write access with 400, and toggle and delete with 401', async () => {
      const update = await server.as(bob.token).post(`/api/v1/models/model/update${q('acl-group-read')}`, modelBody('acl-group-read', { name: 'Hijacked' }));
      expect(update.status).toBe(400);
      expect(update.body.detail).toMatch(/write access/);
      expect((await server.as(bob.token).post(`/api/v1/models/model/toggle${q('acl-group-read')}`)).status).toBe(401);
      expect((await server.as(bob.token).delete(`/api/v1/models/model/delete${q('acl-group-read')}`)).status).toBe(401);
      expect((await server.as(carol.token).post(`/api/v1/models/model/update${q('acl-public')}`, modelBody('acl-public'))).status).toBe(400);
      expect((await server.as(alice.token).get(`/api/v1/models/model${q('acl-group-read')}`)).body.name).toBe('Model acl-group-read');
    });

    it('lets users and groups on the write list update and toggle, while the owner stays the same', async () => {
      const byCarol = await server.as(carol.token).post(
        `/api/v1/models/model/update${q('acl-group-read')}`,
        modelBody('acl-group-read', { name: 'Edited by Carol', access_control: { read: { group_ids: [groupId], user_ids: [] }, write: { group_ids: [], user_ids: [carol.id] } } }),
      );
      expect(byCarol.status).toBe(200);
      expect(byCarol.body).toMatchObject({ name: 'Edited by Carol', user_id: alice.id });
      const toggled = await server.as(bob.token).post(`/api/v1/models/model/toggle${q('acl-group-write')}`);
      expect(toggled.status).toBe(200);
      expect(toggled.body.is_active).toBe(false);
      expect((await server.as(bob.token).post(`/api/v1/models/model/toggle${q('acl-group-write')}`)).body.is_active).toBe(true);
    });

    it('lets a group on the write list delete the model', async () => {
      await server.as(alice.token).post('/api/v1/models/create', modelBody('to-delete', { access_control: { write: { group_ids: [groupId], user_ids: [] } } }));
      const res = await server.as(bob.token).delete(`/api/v1/models/model/delete${q('to-delete')}`);
      expect(res.status).toBe(200);
      expect(res.body).toBe(true);
      expect((await server.as(alice.token).get(`/api/v1/models/model${q('to-delete')}`)).status).toBe(401);
    });

    it('takes access away as soon as a user leaves the group', async () => {
      const dave = await buildUser(server, admin, 'user');
      const gid = await createGroup([dave]);
      await server.as(alice.token).post('/api/v1/models/create', modelBody('leaving', { access_control: { read: { group_ids: [gid], user_ids: [] } } }));
      expect((await server.as(dave.token).get(`/api/v1/models/model${q('leaving')}`)).status).toBe(200);
      await server.services.db('group_members').where({ group_id: gid, user_id: dave.id }).delete();
      expect((await server.as(dave.token).get(`/api/v1/models/model${q('leaving')}`)).status).toBe(401);
    });
  });

  describe('update, toggle and delete', () => {
    it('answers a missing model with 401 on update, toggle and delete', async () => {
      const as = server.as(admin.token);
      expect((await as.post(`/api/v1/models/model/update${q('ghost')}`, modelBody('ghost'))).status).toBe(401);
      expect((await as.post(`/api/v1/models/model/toggle${q('ghost')}`)).status).toBe(401);
      expect((await as.delete(`/api/v1/models/model/delete${q('ghost')}`)).status).toBe(401);
    });

    it('needs every field on update (422), and keeps the id (422 when it differs)', async () => {
      const as = server.as(alice.token);
      const missing = await as.post(`/api/v1/models/model/update${q('alice-model')}`, { id: 'alice-model', name: 'Only a name' });
      expect(missing.status).toBe(422);
      expect(missing.body.detail).toMatch(/base_model_id|params|meta|access_control|is_active/);
      const renamed = await as.post(`/api/v1/models/model/update${q('alice-model')}`, modelBody('another-id'));
      expect(renamed.status).toBe(422);
      expect(renamed.body.detail).toMatch(/id/);
    });

    it('replaces the fields and bumps updated_at, keeping created_at and the owner', async () => {
      const as = server.as(alice.token);
      const before = (await as.get(`/api/v1/models/model${q('alice-model')}`)).body;
      const res = await as.post(
        `/api/v1/models/model/update${q('alice-model')}`,
        modelBody('alice-model', { name: 'New name', base_model_id: 'other-base', params: { system: 'Be kind.' }, meta: { toolIds: ['server:mcp:x'] }, access_control: { read: { user_ids: [bob.id], group_ids: [] } }, is_active: false }),
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: 'alice-model',
        name: 'New name',
        base_model_id: 'other-base',
        params: { system: 'Be kind.' },
        meta: { toolIds: ['server:mcp:x'] },
        access_control: { read: { user_ids: [bob.id], group_ids: [] } },
        is_active: false,
        user_id: alice.id,
        created_at: before.created_at,
        updated_at: expect.any(Number),
      });
      expect((await server.as(bob.token).get(`/api/v1/models/model${q('alice-model')}`)).status).toBe(200);
    });

    it('toggles is_active back and forth', async () => {
      const as = server.as(admin.token);
      await as.post('/api/v1/models/create', modelBody('toggler'));
      expect((await as.post(`/api/v1/models/model/toggle${q('toggler')}`)).body.is_active).toBe(false);
      expect((await as.post(`/api/v1/models/model/toggle${q('toggler')}`)).body.is_active).toBe(true);
      expect((await as.get(`/api/v1/models/model${q('toggler')}`)).body.is_active).toBe(true);
    });

    it('lets an admin change and delete any user\'s model', async () => {
      await server.as(alice.token).post('/api/v1/models/create', modelBody('alice-second', { access_control: {} }));
      const as = server.as(admin.token);
      expect((await as.post(`/api/v1/models/model/update${q('alice-second')}`, modelBody('alice-second', { name: 'By admin' }))).body.user_id).toBe(alice.id);
      expect((await as.delete(`/api/v1/models/model/delete${q('alice-second')}`)).body).toBe(true);
    });
  });

  it('removes a user\'s models when the user is deleted', async () => {
    const erin = await buildUser(server, admin, 'user');
    await server.as(erin.token).post('/api/v1/models/create', modelBody('erin-model'));
    await server.services.db('users').where({ id: erin.id }).delete();
    expect((await server.as(admin.token).get(`/api/v1/models/model${q('erin-model')}`)).status).toBe(401);
  });
});
