import { spawnSync } from 'node:child_process';
import { existsSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileSecretStore } from '../../server/secrets';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { createTestDatabase, startPostgresCluster, testClusterUrl, type PostgresCluster } from '../helpers/postgres';
import { startTestServer, tempDataDir, type TestServer } from '../helpers/server';

const root = path.resolve(import.meta.dirname, '../..');
const MASTER_KEY = 'b'.repeat(64);

/** `npm run migrate-db` as people run it (the built CLI). */
function migrateDb(...args: string[]) {
  return spawnSync(process.execPath, [path.join(root, 'dist/server/migrate-db/cli.js'), ...args], { encoding: 'utf8', timeout: 120_000 });
}

interface Snapshot {
  users: Array<{ id: string; email: string; role: string }>;
  chats: Array<{ id: string; title: string }>;
  messages: string[];
  folders: Array<{ id: string; name: string; parent_id: string | null }>;
  tools: string[];
  notes: Array<{ title: string; md: string; version: number }>;
  memories: string[];
}

async function snapshot(server: TestServer, admin: TestUser, alice: TestUser, chatId: string): Promise<Snapshot> {
  const users = (await server.as(admin.token).get('/api/v1/users/all')).body.users as Array<{ id: string; email: string; role: string }>;
  const chats = (await server.as(alice.token).get('/api/v1/chats/?page=1&include_folders=true')).body as Array<{ id: string; title: string }>;
  const chat = (await server.as(alice.token).get(`/api/v1/chats/${chatId}`)).body;
  const messages = (chat.messages as Array<{ role: string; content: string }>).map((m) => `${m.role}: ${m.content}`);
  const folders = (await server.as(alice.token).get('/api/v1/folders/')).body as Array<{ id: string; name: string; parent_id: string | null }>;
  const tools = ((await server.as(admin.token).get('/api/v1/tools/')).body as Array<{ id: string }>).map((t) => t.id);
  const notes = (await server.as(alice.token).get('/api/v1/notes/')).body as Array<{ title: string; data: { content: { md: string } }; version: number }>;
  const memories = (await server.as(alice.token).get('/api/v1/memories/')).body as Array<{ content: string }>;
  return {
    users: users.map(({ id, email, role }) => ({ id, email, role })).sort((a, b) => a.id.localeCompare(b.id)),
    chats: chats.map(({ id, title }) => ({ id, title })),
    messages,
    folders: folders.map(({ id, name, parent_id }) => ({ id, name, parent_id })).sort((a, b) => a.name.localeCompare(b.name)),
    tools,
    notes: notes.map((n) => ({ title: n.title, md: n.data.content.md, version: n.version })),
    memories: memories.map((m) => m.content),
  };
}

describe('npm run migrate-db: moving an office from SQLite to PostgreSQL', () => {
  let cluster: PostgresCluster | undefined;
  let baseUrl: string;
  const dataDir = tempDataDir('parley-move-');
  let before: Snapshot;
  let admin: TestUser;
  let alice: TestUser;
  let chatId: string;

  beforeAll(async () => {
    // The run's cluster on PARLEY_TEST_DB=postgres, else one of this file's own.
    baseUrl = testClusterUrl() ?? (cluster = await startPostgresCluster()).baseUrl;
    const server = await startTestServer({ dataDir, sqlite: true, secrets: fileSecretStore(dataDir, MASTER_KEY) });
    try {
      admin = await signupAdmin(server);
      alice = await buildUser(server, admin, 'user', 'Alice');
      await buildUser(server, admin, 'pending', 'Pending Pat');
      const as = server.as(alice.token);
      chatId = (await as.post('/api/v1/chats/new', { title: 'Quarterly planning' })).body.id;
      for (const content of ['Draft the quarterly budget for the café', 'Here is a draft of the budget']) {
        expect((await as.post(`/api/v1/chats/${chatId}/messages`, { role: content.startsWith('Draft') ? 'user' : 'assistant', content })).status).toBe(200);
      }
      for (let i = 0; i < 7; i += 1) await as.post('/api/v1/chats/new', { title: `Chat ${i}` });
      const work = (await as.post('/api/v1/folders/', { name: 'Work' })).body;
      const reports = (await as.post('/api/v1/folders/', { name: 'Reports', parent_id: work.id })).body;
      expect((await as.post(`/api/v1/chats/${chatId}/folder`, { folder_id: reports.id })).status).toBe(200);
      expect((await as.post(`/api/v1/chats/${chatId}/tags`, { name: 'Finance' })).status).toBe(200);
      const tool = await server.as(admin.token).post('/api/v1/tools/create', {
        id: 'weather',
        name: 'Weather',
        type: 'api',
        config: { url: 'http://127.0.0.1:9/weather', method: 'GET', api_key: 'tool-key-that-stays-in-the-store', parameters: { type: 'object', properties: {} } },
      });
      expect(tool.status).toBe(200);
      const note = (await as.post('/api/v1/notes/create', { title: 'Café budget', data: { content: { md: 'Espresso machine: 2,400 €' } } })).body;
      expect((await as.post(`/api/v1/notes/${note.id}/update`, { data: { content: { md: 'Espresso machine: 2,400 €\nGrinder: 600 €' } }, version: 1 })).status).toBe(200);
      for (const content of ['I run a café in Lyon', 'I prefer answers in euros']) expect((await as.post('/api/v1/memories/add', { content })).status).toBe(200);
      before = await snapshot(server, admin, alice, chatId);
    } finally {
      await server.close();
    }
  }, 120_000);

  afterAll(() => {
    cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('copies every table, prints the counts, refuses a filled target, and the service on PostgreSQL shows the same office', async () => {
    const url = await createTestDatabase(baseUrl, `parley_move_${process.pid}`);
    const run = migrateDb('--from', dataDir, '--to', url);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^\s+users\s+3 →\s+3$/m);
    expect(run.stdout).toMatch(/^\s+chats\s+8 →\s+8$/m);
    expect(run.stdout).toMatch(/^\s+chat_messages\s+2 →\s+2$/m);
    expect(run.stdout).toMatch(/^\s+folders\s+2 →\s+2$/m);
    expect(run.stdout).toMatch(/^\s+notes\s+1 →\s+1$/m);
    expect(run.stdout).toMatch(/^\s+memories\s+2 →\s+2$/m);
    expect(run.stdout).toContain('Secrets were not copied');
    expect(run.stdout).toContain('secrets.enc');
    // The closing hint names the commands that start the service, with the same data dir.
    expect(run.stdout).toContain(`PARLEY_DATA_DIR=${dataDir} PARLEY_DATABASE_URL=`);
    expect(run.stdout).toContain('npm run serve');
    expect(run.stdout).not.toContain('npm start');
    // The SQLite database is moved aside, where the output says, so nothing serves or backs up the old copy.
    const movedTo = path.join(dataDir, 'parley.db.moved-to-postgresql');
    expect(run.stdout).toContain(`moved aside to ${movedTo}`);
    expect(existsSync(path.join(dataDir, 'parley.db'))).toBe(false);
    expect(existsSync(movedTo)).toBe(true);
    // Started without PARLEY_DATABASE_URL, the data dir is refused instead of served from an empty or old SQLite file.
    await expect(startTestServer({ dataDir, keepDataDir: true, sqlite: true, secrets: fileSecretStore(dataDir, MASTER_KEY) })).rejects.toThrow(
      /database of .* was moved to PostgreSQL .*parley\.db\.moved-to-postgresql.*PARLEY_DATABASE_URL/,
    );
    expect(existsSync(path.join(dataDir, 'parley.db'))).toBe(false);

    // Renamed back (as the output says), it can be copied again: a filled target is refused unless --force.
    renameSync(movedTo, path.join(dataDir, 'parley.db'));
    const again = migrateDb('--from', dataDir, '--to', url);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('already holds data');
    expect(existsSync(path.join(dataDir, 'parley.db'))).toBe(true);
    const forced = migrateDb('--from', dataDir, '--to', url, '--force', '--batch', '2');
    expect(forced.stderr).toBe('');
    expect(forced.status).toBe(0);
    expect(existsSync(movedTo)).toBe(true);

    const server = await startTestServer({ dataDir, keepDataDir: true, secrets: fileSecretStore(dataDir, MASTER_KEY), envVars: { PARLEY_DATABASE_URL: url } });
    try {
      const signin = await server.anon.post('/api/v1/auths/signin', { email: alice.email, password: alice.password });
      expect(signin.status).toBe(200);
      const adminSignin = await server.anon.post('/api/v1/auths/signin', { email: admin.email, password: admin.password });
      const after = await snapshot(server, { ...admin, token: adminSignin.body.token }, { ...alice, token: signin.body.token }, chatId);
      expect(after).toEqual(before);
      // Search on PostgreSQL finds the copied messages (accents folded), and new rows get fresh ids.
      const found = await server.as(signin.body.token).get(`/api/v1/chats/search?text=${encodeURIComponent('cafe budg')}`);
      expect(found.body.map((c: { id: string }) => c.id)).toEqual([chatId]);
      // Notes are searched and memories recalled from what was copied (embeddings included).
      const notes = await server.as(signin.body.token).get('/api/v1/notes/search?query=grinder');
      expect(notes.body.items.map((n: { title: string }) => n.title)).toEqual(['Café budget']);
      const recalled = await server.as(signin.body.token).post('/api/v1/memories/query', { content: 'where is my café', k: 1 });
      expect(recalled.body.documents[0]).toEqual(['I run a café in Lyon']);
      const fresh = await server.as(signin.body.token).post('/api/v1/chats/new', { title: 'After the move' });
      expect(fresh.status).toBe(200);
      // The secret store stayed with the data dir: the tool's key is still there for admins.
      const tool = (await server.as(adminSignin.body.token).get('/api/v1/tools/weather')).body;
      expect(JSON.stringify(tool)).toContain('tool-key-that-stays-in-the-store');
      // Backups of a PostgreSQL-backed service are PostgreSQL's own tools' job.
      const backup = await server.as(adminSignin.body.token).post('/api/v1/backups/');
      expect(backup.status).toBe(409);
      expect(backup.body.detail).toContain('pg_dump');
    } finally {
      await server.close();
    }
  });

  it('refuses to copy while a service runs on the data dir, and copies nothing', async () => {
    const running = await startTestServer({ sqlite: true });
    const url = await createTestDatabase(baseUrl, `parley_move_running_${process.pid}`);
    try {
      await signupAdmin(running);
      const run = migrateDb('--from', running.dataDir, '--to', url);
      expect(run.status).toBe(1);
      expect(run.stderr.trim()).toMatch(/^\S+ is in use by a running Parley \(pid \d+, http:\/\/127\.0\.0\.1:\d+\): stop the service or quit the desktop app first, then run migrate-db again$/);
      expect(run.stdout).not.toContain('Row counts');
      expect(existsSync(path.join(running.dataDir, 'parley.db'))).toBe(true);
      // Neither side was touched: the target has no tables, and the service keeps serving.
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        expect((await client.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")).rows).toEqual([]);
      } finally {
        await client.end();
      }
      expect((await running.anon.get('/health')).status).toBe(200);
    } finally {
      await running.close();
    }
  });

  it('refuses a folder without a database and a URL that is not PostgreSQL', () => {
    const empty = tempDataDir('parley-move-empty-');
    try {
      const none = migrateDb('--from', empty, '--to', `${baseUrl}/postgres`);
      expect(none.status).toBe(1);
      expect(none.stderr).toContain('holds no Parley database');
      const wrong = migrateDb('--from', dataDir, '--to', 'mysql://localhost/x');
      expect(wrong.status).toBe(1);
      expect(wrong.stderr).toContain('postgres:// URL');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
