import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';

describe('prompts library', () => {
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
  const as = (u: TestUser) => server.as(u.token);

  it('creates a /command prompt, reads it by command and lists it for its owner only while private', async () => {
    const created = await as(alice).post('/api/v1/prompts/create', { command: 'summarize', title: 'Summarize', content: 'Summarize {{CLIPBOARD}} for {{audience}}' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ command: '/summarize', user_id: alice.id, title: 'Summarize', access_control: {}, write_access: true, timestamp: expect.any(Number) });
    expect((await as(alice).get('/api/v1/prompts/command/summarize')).body.content).toContain('{{audience}}');
    expect((await as(alice).get('/api/v1/prompts/')).body.map((p: { command: string }) => p.command)).toContain('/summarize');
    expect((await as(bob).get('/api/v1/prompts/')).body.map((p: { command: string }) => p.command)).not.toContain('/summarize');
    expect((await as(bob).get('/api/v1/prompts/command/summarize')).status).toBe(404);
    expect((await as(admin).get('/api/v1/prompts/command/summarize')).body.write_access).toBe(true);
    expect((await as(alice).post('/api/v1/prompts/create', { command: '/Summarize', title: 'x', content: 'y' })).status).toBe(400);
  });

  it('shares through access control: readers see it, writers change it, strangers get 404', async () => {
    const group = (await as(admin).post('/api/v1/groups/create', { name: 'Editors' })).body;
    await as(admin).post(`/api/v1/groups/id/${group.id}/users/add`, { user_ids: [bob.id] });
    await as(alice).post('/api/v1/prompts/create', { command: 'standup', title: 'Standup', content: 'Yesterday, today, blockers', access_control: { read: { group_ids: [group.id] } } });
    const read = await as(bob).get('/api/v1/prompts/command/standup');
    expect(read.status).toBe(200);
    expect(read.body.write_access).toBe(false);
    const refused = await as(bob).post('/api/v1/prompts/command/standup/update', { command: 'standup', title: 'Mine', content: 'x' });
    expect(refused.status).toBe(403);
    expect((await as(bob).delete('/api/v1/prompts/command/standup/delete')).status).toBe(403);

    await as(alice).post('/api/v1/prompts/command/standup/update', { command: 'standup', title: 'Standup', content: 'Yesterday, today, blockers', access_control: { write: { user_ids: [bob.id] } } });
    const edited = await as(bob).post('/api/v1/prompts/command/standup/update', { command: '/daily', title: 'Daily', content: 'Plan for {{CURRENT_DATE}}' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ command: '/daily', title: 'Daily', user_id: alice.id, access_control: { write: { user_ids: [bob.id] } } });
    expect((await as(alice).get('/api/v1/prompts/command/standup')).status).toBe(404);
    expect((await as(bob).delete('/api/v1/prompts/command/daily/delete')).body).toBe(true);
    expect((await as(alice).get('/api/v1/prompts/command/daily')).status).toBe(404);
  });

  it('refuses creating without workspace.prompts (before validating), while the admin still may', async () => {
    const defaults = (await as(admin).get('/api/v1/users/default/permissions')).body;
    await as(admin).post('/api/v1/users/default/permissions', { ...defaults, workspace: { ...defaults.workspace, prompts: false } });
    try {
      const refused = await as(alice).post('/api/v1/prompts/create', { nonsense: true });
      expect(refused.status).toBe(403);
      expect(refused.body.detail).toMatch(/prompts/);
      expect((await as(admin).post('/api/v1/prompts/create', { command: 'adminonly', title: 'A', content: 'B' })).status).toBe(200);
    } finally {
      await as(admin).post('/api/v1/users/default/permissions', defaults);
    }
  });

  it('answers bad input with 422 naming the field, and refuses strangers and pending accounts', async () => {
    const bad = await as(alice).post('/api/v1/prompts/create', { command: 'has space', title: 'x', content: 'y' });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toContain('command');
    expect((await as(alice).post('/api/v1/prompts/create', { command: 'ok', title: '', content: 'y' })).status).toBe(422);
    expect((await as(alice).get('/api/v1/prompts/command/bad%20name')).status).toBe(400);
    expect((await server.anon.get('/api/v1/prompts/')).status).toBe(401);
    expect((await as(pending).get('/api/v1/prompts/')).status).toBe(403);
  });
});
