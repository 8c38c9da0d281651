import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { createTestDatabase, dropTestDatabase, pgRows as query, postgresBinDir, startPostgresCluster, testClusterUrl, type PostgresCluster } from '../helpers/postgres';
import { startTestServer, tempDataDir } from '../helpers/server';

/** docs/operations.md's backup commands, as an administrator types them. */
function pgTool(tool: 'pg_dump' | 'pg_restore', args: string[]) {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL is not installed (apt-get install -y postgresql)');
  return spawnSync(path.join(bin, tool), args, { encoding: 'utf8', timeout: 120_000 });
}

const searchIndexes = async (url: string) =>
  (await query<{ indexname: string }>(url, "SELECT indexname FROM pg_indexes WHERE indexname IN ('chat_messages_search', 'chats_search') ORDER BY indexname")).map((r) => r.indexname);

describe('PostgreSQL backups with pg_dump and pg_restore (docs/operations.md)', () => {
  let cluster: PostgresCluster | undefined;
  let baseUrl: string;
  let url: string;
  let dbName: string;
  const dataDir = tempDataDir('parley-pgdump-');
  const dump = path.join(os.tmpdir(), `parley-${process.pid}.dump`);
  let alice: TestUser;
  let chatId: string;

  /** Alice's search for a word with its accent left out, on a service started on the database. */
  async function searchAfterRestart(text: string): Promise<string[]> {
    const server = await startTestServer({ dataDir, keepDataDir: true, envVars: { PARLEY_DATABASE_URL: url } });
    try {
      const signin = await server.anon.post('/api/v1/auths/signin', { email: alice.email, password: alice.password });
      const found = await server.as(signin.body.token).get(`/api/v1/chats/search?text=${encodeURIComponent(text)}`);
      expect(found.status).toBe(200);
      return (found.body as Array<{ id: string }>).map((c) => c.id);
    } finally {
      await server.close();
    }
  }

  function roundTrip(): void {
    const dumped = pgTool('pg_dump', ['-Fc', '-d', url, '-f', dump]);
    expect(dumped.stderr).toBe('');
    expect(dumped.status).toBe(0);
    const restored = pgTool('pg_restore', ['--clean', '--if-exists', '-d', url, dump]);
    expect(restored.stderr).toBe('');
    expect(restored.status).toBe(0);
  }

  beforeAll(async () => {
    // The run's cluster on PARLEY_TEST_DB=postgres, else one of this file's own.
    baseUrl = testClusterUrl() ?? (cluster = await startPostgresCluster()).baseUrl;
    dbName = `parley_dump_${process.pid}`;
    url = await createTestDatabase(baseUrl, dbName);
    const server = await startTestServer({ dataDir, keepDataDir: true, envVars: { PARLEY_DATABASE_URL: url } });
    try {
      const admin = await signupAdmin(server);
      alice = await buildUser(server, admin, 'user', 'Alice');
      const as = server.as(alice.token);
      chatId = (await as.post('/api/v1/chats/new', { title: 'Quarterly planning' })).body.id;
      expect((await as.post(`/api/v1/chats/${chatId}/messages`, { role: 'user', content: 'Draft the budget for the café' })).status).toBe(200);
      await as.post('/api/v1/chats/new', { title: 'Something else' });
    } finally {
      await server.close();
    }
  }, 120_000);

  afterAll(async () => {
    await dropTestDatabase(baseUrl, dbName);
    cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(dump, { force: true });
  });

  it('restores the database whole, chat-search indexes included, and search still ignores accents', async () => {
    expect(await searchIndexes(url)).toEqual(['chat_messages_search', 'chats_search']);
    roundTrip();
    expect(await searchIndexes(url)).toEqual(['chat_messages_search', 'chats_search']);
    expect(await searchAfterRestart('cafe budg')).toEqual([chatId]);
  });

  it('mends a database migrated before the fix whose restore lost the indexes', async () => {
    // As the earlier migration left it: the extension's names unqualified, and an index a broken restore lost.
    await query(url, "CREATE OR REPLACE FUNCTION parley_search_text(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT lower(unaccent('unaccent'::regdictionary, coalesce($1, ''))) $$");
    await query(url, 'DROP INDEX chat_messages_search');
    await query(url, "DELETE FROM knex_migrations WHERE name = '202611281201-postgres-search-qualified-names'");

    expect(await searchAfterRestart('cafe')).toEqual([chatId]);
    expect(await searchIndexes(url)).toEqual(['chat_messages_search', 'chats_search']);
    roundTrip();
    expect(await searchIndexes(url)).toEqual(['chat_messages_search', 'chats_search']);
    expect(await searchAfterRestart('CAFÉ')).toEqual([chatId]);
  });
});
