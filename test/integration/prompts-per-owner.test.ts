import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../server/platform/db/migrations';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, tempDataDir, type TestServer } from '../helpers/server';

/**
 * `/command` prompts are unique per owner: one person's private prompt neither blocks nor reveals
 * itself to anyone else, and `/command` means the caller's own prompt first.
 */
describe('prompt commands per owner', () => {
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
  const create = (u: TestUser, command: string, extra: Record<string, unknown> = {}) => as(u).post('/api/v1/prompts/create', { command, title: `${command} of ${u.name}`, content: `${u.name}'s ${command}`, ...extra });

  it('lets two people each have a private /summary, each reading and changing their own', async () => {
    expect((await create(alice, 'summary')).status).toBe(200);
    // The attack: Bob's create was refused "taken", telling him Alice's private prompt exists.
    const bobs = await create(bob, 'summary');
    expect(bobs.status).toBe(200);
    expect(bobs.body).toMatchObject({ command: '/summary', user_id: bob.id });
    expect((await as(alice).get('/api/v1/prompts/command/summary')).body.content).toBe("Alice's summary");
    expect((await as(bob).get('/api/v1/prompts/command/summary')).body.content).toBe("Bob's summary");
    const edited = await as(bob).post('/api/v1/prompts/command/summary/update', { command: 'summary', title: 'Mine', content: 'changed by Bob' });
    expect(edited.status).toBe(200);
    expect((await as(alice).get('/api/v1/prompts/command/summary')).body.content).toBe("Alice's summary");
    expect((await as(bob).delete('/api/v1/prompts/command/summary/delete')).status).toBe(200);
    expect((await as(alice).get('/api/v1/prompts/command/summary')).status).toBe(200);
    expect((await as(bob).get('/api/v1/prompts/command/summary')).status).toBe(404);
  });

  it('refuses a second prompt with the same command of the same owner, naming only the caller’s own', async () => {
    expect((await create(alice, 'triage')).status).toBe(200);
    const again = await create(alice, 'triage');
    expect(again.status).toBe(400);
    expect(again.body.detail).toMatch(/You already have a prompt '\/triage'/);
    expect((await create(bob, 'weekly')).status).toBe(200);
    const renamed = await as(bob).post('/api/v1/prompts/command/weekly/update', { command: 'triage', title: 't', content: 'c' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ command: '/triage', user_id: bob.id });
  });

  it('means the caller’s own prompt first, then one shared with them; the list holds one per command', async () => {
    expect((await create(alice, 'standup', { access_control: { read: { user_ids: [bob.id] } } })).status).toBe(200);
    expect((await as(bob).get('/api/v1/prompts/command/standup')).body.user_id).toBe(alice.id);
    expect((await create(bob, 'standup')).status).toBe(200);
    expect((await as(bob).get('/api/v1/prompts/command/standup')).body.user_id).toBe(bob.id);
    const list = (await as(bob).get('/api/v1/prompts/')).body as Array<{ command: string; user_id: string }>;
    expect(list.filter((p) => p.command === '/standup')).toEqual([expect.objectContaining({ user_id: bob.id })]);
    // Once Bob's own goes, /standup is Alice's shared one again.
    await as(bob).delete('/api/v1/prompts/command/standup/delete');
    expect((await as(bob).get('/api/v1/prompts/command/standup')).body.user_id).toBe(alice.id);
  });
});

describe('the prompts-per-owner migration', () => {
  const dataDir = tempDataDir('parley-prompts-');
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps every prompt of a database from before it, and then lets owners share a command', async () => {
    const before = MIGRATIONS.findIndex(([name]) => name === '202611290101-prompts-per-owner');
    const old = await startTestServer({ dataDir, keepDataDir: true, migrations: MIGRATIONS.slice(0, before) });
    const admin = await signupAdmin(old);
    const carol = await buildUser(old, admin, 'user', 'Carol');
    const rows = [
      { command: '/summary', user_id: carol.id, title: 'Summary', content: 'Summarize', access_control: '{}', timestamp: 100 },
      { command: '/public', user_id: admin.id, title: 'Public', content: 'For all', access_control: null, timestamp: 200 },
    ];
    await old.services.db('prompts').insert(rows);
    await old.close();

    const upgraded = await startTestServer({ dataDir, keepDataDir: true });
    const signin = async (u: TestUser) => (await upgraded.anon.post('/api/v1/auths/signin', { email: u.email, password: u.password })).body.token as string;
    try {
      const carolToken = await signin(carol);
      const adminToken = await signin(admin);
      expect(await upgraded.services.db('prompts').orderBy('timestamp').select('*')).toEqual(rows);
      expect((await upgraded.as(carolToken).get('/api/v1/prompts/command/public')).body.content).toBe('For all');
      const admins = await upgraded.as(adminToken).post('/api/v1/prompts/create', { command: 'summary', title: 'Mine', content: 'Admin summary' });
      expect(admins.status).toBe(200);
      expect((await upgraded.as(carolToken).get('/api/v1/prompts/command/summary')).body.content).toBe('Summarize');
    } finally {
      await upgraded.close();
    }
  });
});
