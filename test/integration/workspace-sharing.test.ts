import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, createGroupInDb, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Who may make a workspace object public, and who may change who reads it: `sharing.public_*`
 * (admins always) for public, its owner or an admin for the access list; a writer may change
 * the content only.
 */
describe('sharing rules of knowledge bases and models', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let mallory: TestUser;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin, 'user', 'Alice');
    bob = await buildUser(server, admin, 'user', 'Bob');
    mallory = await buildUser(server, admin, 'user', 'Mallory');
    await createGroupInDb(server, [bob], { sharing: { public_knowledge: true } });
  });
  afterAll(async () => {
    await server.close();
  });

  const readableBy = async (user: TestUser, id: string) => (await server.as(user.token).get(`/api/v1/knowledge/${id}`)).status;

  it('keeps a knowledge base private when its creator may not share knowledge publicly', async () => {
    const created = await server.as(alice.token).post('/api/v1/knowledge/create', { name: 'Salaries', description: '', access_control: null });
    expect(created.status).toBe(200);
    expect(created.body.access_control).toEqual({});
    expect(await readableBy(mallory, created.body.id)).toBe(404);
    const madePublic = await server.as(alice.token).post(`/api/v1/knowledge/${created.body.id}/update`, { name: 'Salaries', access_control: null });
    expect(madePublic.status).toBe(200);
    expect(await readableBy(mallory, created.body.id)).toBe(404);
  });

  it('lets a holder of sharing.public_knowledge, and an admin, make a base public', async () => {
    const byBob = await server.as(bob.token).post('/api/v1/knowledge/create', { name: 'Handbook', description: '', access_control: null });
    expect(byBob.body.access_control).toBeNull();
    expect(await readableBy(mallory, byBob.body.id)).toBe(200);
    const byAdmin = await server.as(admin.token).post('/api/v1/knowledge/create', { name: 'Rules', description: '', access_control: null });
    expect(await readableBy(mallory, byAdmin.body.id)).toBe(200);
  });

  it('does not let a writer of someone else’s base change who may read it', async () => {
    const shared = { read: { user_ids: [mallory.id], group_ids: [] }, write: { user_ids: [mallory.id], group_ids: [] } };
    const created = await server.as(bob.token).post('/api/v1/knowledge/create', { name: 'Board minutes', description: '', access_control: shared });
    const id = created.body.id as string;
    // Mallory may write (rename); she tries to publish the base to everyone and to add a friend.
    const publish = await server.as(mallory.token).post(`/api/v1/knowledge/${id}/update`, { name: 'Board minutes (2026)', access_control: null });
    expect(publish.status).toBe(200);
    expect(publish.body.name).toBe('Board minutes (2026)');
    expect(await readableBy(alice, id)).toBe(404);
    await server.as(mallory.token).post(`/api/v1/knowledge/${id}/update`, { name: 'Board minutes', access_control: { read: { user_ids: [alice.id], group_ids: [] } } });
    expect(await readableBy(alice, id)).toBe(404);
    expect((await server.as(bob.token).get(`/api/v1/knowledge/${id}`)).body.access_control).toEqual(shared);
    // The owner may.
    await server.as(bob.token).post(`/api/v1/knowledge/${id}/update`, { name: 'Board minutes', access_control: { read: { user_ids: [alice.id], group_ids: [] } } });
    expect(await readableBy(alice, id)).toBe(200);
  });

  it('does not let a writer of someone else’s model change who may read it', async () => {
    const body = (overrides: Record<string, unknown>) => ({
      id: 'board-helper',
      name: 'Board helper',
      base_model_id: 'gpt-fake',
      params: {},
      meta: { description: '', capabilities: {}, knowledge: [], toolIds: [], tags: [] },
      is_active: true,
      ...overrides,
    });
    const shared = { read: { user_ids: [mallory.id], group_ids: [] }, write: { user_ids: [mallory.id], group_ids: [] } };
    expect((await server.as(admin.token).post('/api/v1/models/create', body({ access_control: shared }))).status).toBe(200);
    const byMallory = await server.as(mallory.token).post('/api/v1/models/model/update?id=board-helper', body({ name: 'Renamed', access_control: { read: { user_ids: [alice.id], group_ids: [] }, write: { user_ids: [mallory.id], group_ids: [] } } }));
    expect(byMallory.status).toBe(200);
    expect(byMallory.body.name).toBe('Renamed');
    expect(byMallory.body.access_control).toEqual(shared);
    expect((await server.as(alice.token).get('/api/v1/models/model?id=board-helper')).status).toBe(401);
  });
});
