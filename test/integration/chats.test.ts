import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';

describe('chats', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin, 'user', 'Alice');
    bob = await buildUser(server, admin, 'user', 'Bob');
  });
  afterAll(async () => {
    await server.close();
  });

  const as = (u: TestUser) => server.as(u.token);

  it('creates a chat with the interface fields and lists it', async () => {
    const created = await as(alice).post('/api/v1/chats/new', { title: 'Trip plans' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ id: expect.any(String), user_id: alice.id, title: 'Trip plans', created_at: expect.any(Number), updated_at: expect.any(Number) });
    const list = await as(alice).get('/api/v1/chats?page=1');
    expect(list.status).toBe(200);
    expect(list.body[0]).toEqual({
      tags: [],
      share_id: null,
      id: created.body.id,
      user_id: alice.id,
      title: 'Trip plans',
      created_at: created.body.created_at,
      updated_at: created.body.updated_at,
      pinned: false,
      archived: false,
      folder_id: null,
    });
  });

  it('names an untitled chat "New Chat" and accepts the chat.title form', async () => {
    expect((await as(alice).post('/api/v1/chats/new', {})).body.title).toBe('New Chat');
    expect((await as(alice).post('/api/v1/chats/new', { chat: { title: 'From chat' } })).body.title).toBe('From chat');
  });

  it('lists newest activity first and pages by 60', async () => {
    const user = await buildUser(server, admin);
    const ids: string[] = [];
    for (let i = 0; i < 62; i += 1) ids.push((await as(user).post('/api/v1/chats/new', { title: `c${i}` })).body.id);
    // Touch the oldest: it moves to the top.
    await as(user).post(`/api/v1/chats/${ids[0]}/messages`, { role: 'user', content: 'bump' });
    const page1 = await as(user).get('/api/v1/chats?page=1');
    const page2 = await as(user).get('/api/v1/chats?page=2');
    expect(page1.body).toHaveLength(60);
    expect(page2.body).toHaveLength(2);
    expect(page1.body[0].id).toBe(ids[0]);
    const all = [...page1.body, ...page2.body].map((c: { id: string }) => c.id);
    expect(new Set(all).size).toBe(62);
  });

  it('leaves pinned and filed chats out unless asked, and archived chats out of the list', async () => {
    const user = await buildUser(server, admin);
    const plain = (await as(user).post('/api/v1/chats/new', { title: 'plain' })).body.id;
    const pinned = (await as(user).post('/api/v1/chats/new', { title: 'pinned' })).body.id;
    const folder = (await as(user).post('/api/v1/folders/', { name: 'Folder 1' })).body.id;
    const filed = (await as(user).post('/api/v1/chats/new', { title: 'filed', folder_id: folder })).body.id;
    const archived = (await as(user).post('/api/v1/chats/new', { title: 'archived' })).body.id;
    expect((await as(user).post(`/api/v1/chats/${pinned}/pin`, { pinned: true })).body.pinned).toBe(true);
    expect((await as(user).post(`/api/v1/chats/${archived}/archive`, {})).body.archived).toBe(true);

    const ids = async (q: string) => (await as(user).get(`/api/v1/chats${q}`)).body.map((c: { id: string }) => c.id).sort();
    expect(await ids('')).toEqual([plain]);
    expect(await ids('?include_pinned=true')).toEqual([plain, pinned].sort());
    expect(await ids('?include_folders=true')).toEqual([plain, filed].sort());
    expect(await ids('?include_pinned=true&include_folders=true')).toEqual([plain, pinned, filed].sort());
    expect(await ids('/pinned')).toEqual([pinned]);
    expect(await ids('/archived')).toEqual([archived]);

    // Toggle back without a body value.
    expect((await as(user).post(`/api/v1/chats/${archived}/archive`, {})).body.archived).toBe(false);
    expect((await as(user).post(`/api/v1/chats/${pinned}/pin`, { pinned: false })).body.pinned).toBe(false);
    expect(await ids('')).toEqual([plain, pinned, archived].sort());
  });

  it('refuses a bad list query with 422 naming the field', async () => {
    const res = await as(alice).get('/api/v1/chats?include_pinned=maybe');
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/include_pinned/);
    expect((await as(alice).get('/api/v1/chats?page=0')).status).toBe(422);
  });

  it('renames a chat', async () => {
    const id = (await as(alice).post('/api/v1/chats/new', { title: 'old' })).body.id;
    const res = await as(alice).post(`/api/v1/chats/${id}`, { title: 'new name' });
    expect(res.status).toBe(200);
    expect(res.body.title).toBe('new name');
    expect((await as(alice).get(`/api/v1/chats/${id}`)).body.title).toBe('new name');
  });

  it('keeps messages in order and keeps both branches when a message is edited', async () => {
    const id = (await as(alice).post('/api/v1/chats/new', { title: 'tree' })).body.id;
    const q1 = (await as(alice).post(`/api/v1/chats/${id}/messages`, { role: 'user', content: 'What is 2+2?' })).body;
    const a1 = (await as(alice).post(`/api/v1/chats/${id}/messages`, { role: 'assistant', content: '4', model: 'm' })).body;
    expect(a1.parent_id).toBe(q1.id);

    let chat = (await as(alice).get(`/api/v1/chats/${id}`)).body;
    expect(chat.messages.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
      ['user', 'What is 2+2?'],
      ['assistant', '4'],
    ]);

    const edited = await as(alice).post(`/api/v1/chats/${id}/messages/${q1.id}`, { content: 'What is 3+3?' });
    expect(edited.status).toBe(200);
    expect(edited.body.parent_id).toBeNull();
    chat = (await as(alice).get(`/api/v1/chats/${id}`)).body;
    expect(chat.messages.map((m: { content: string }) => m.content)).toEqual(['What is 3+3?']);
    expect(Object.keys(chat.history.messages)).toHaveLength(3);

    // Switching back to the first branch shows its answer too.
    const back = await as(alice).post(`/api/v1/chats/${id}/current`, { message_id: q1.id });
    expect(back.body.messages.map((m: { content: string }) => m.content)).toEqual(['What is 2+2?', '4']);
    expect(back.body.history.messages[q1.id].children_ids).toEqual([a1.id]);
  });

  it('refuses a parent that is not in the chat', async () => {
    const id = (await as(alice).post('/api/v1/chats/new', {})).body.id;
    const res = await as(alice).post(`/api/v1/chats/${id}/messages`, { role: 'user', content: 'x', parent_id: 'nope' });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/parent_id/);
    expect((await as(alice).post(`/api/v1/chats/${id}/messages`, { role: 'robot', content: 'x' })).status).toBe(422);
  });

  it("answers 403 for another user's chat and 404 for an unknown one", async () => {
    const id = (await as(alice).post('/api/v1/chats/new', { title: 'private' })).body.id;
    for (const res of [
      await as(bob).get(`/api/v1/chats/${id}`),
      await as(bob).delete(`/api/v1/chats/${id}`),
      await as(bob).post(`/api/v1/chats/${id}`, { title: 'hijack' }),
      await as(bob).post(`/api/v1/chats/${id}/messages`, { role: 'user', content: 'hi' }),
      await as(admin).get(`/api/v1/chats/${id}`),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.detail).toBeTruthy();
    }
    expect((await as(alice).get('/api/v1/chats/no-such-chat')).status).toBe(404);
    expect((await as(alice).delete('/api/v1/chats/no-such-chat')).status).toBe(404);
    expect((await as(bob).get('/api/v1/chats')).body.map((c: { id: string }) => c.id)).not.toContain(id);
  });

  it('deletes a chat and answers true', async () => {
    const id = (await as(alice).post('/api/v1/chats/new', {})).body.id;
    const res = await as(alice).delete(`/api/v1/chats/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toBe(true);
    expect((await as(alice).get(`/api/v1/chats/${id}`)).status).toBe(404);
  });

  it('refuses anonymous and pending callers', async () => {
    const pending = await buildUser(server, admin, 'pending');
    expect((await server.anon.get('/api/v1/chats')).status).toBe(401);
    expect((await server.anon.post('/api/v1/chats/new', { title: 1 })).status).toBe(401);
    expect((await as(pending).post('/api/v1/chats/new', { title: 1 })).status).toBe(403);
  });
});
