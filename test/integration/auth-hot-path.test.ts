import { afterEach, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin } from '../helpers/builders';
import { testingOnPostgres } from '../helpers/postgres';
import { startTestServer, type TestServer } from '../helpers/server';

/** The SQL of every query the service runs while `fn` runs. */
async function queriesDuring(server: TestServer, fn: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const onQuery = (q: { sql: string }) => seen.push(q.sql);
  server.services.db.on('query', onQuery);
  try {
    await fn();
  } finally {
    server.services.db.off('query', onQuery);
  }
  return seen;
}

describe('authentication on the hot path', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('checks a session token or API key without reading users, revoked tokens or keys each request', async () => {
    server = await startTestServer();
    const admin = await signupAdmin(server);
    const key = (await server.as(admin.token).post('/auths/api_key', {})).body.api_key as string;
    // Warm: the first requests load what is kept in memory.
    expect((await server.as(admin.token).get('/auths/')).status).toBe(200);
    expect((await server.as(key).get('/auths/')).status).toBe(200);
    // The sign-up and key writes to `users` make the pending sign-up counter recount once, 150 ms
    // later, in the background: let it run first, so only what each request reads is measured.
    await new Promise((resolve) => setTimeout(resolve, 400));
    const sql = await queriesDuring(server, async () => {
      for (let i = 0; i < 5; i += 1) {
        expect((await server!.as(admin.token).get('/auths/')).status).toBe(200);
        expect((await server!.as(key).get('/auths/')).status).toBe(200);
      }
    });
    expect(sql.filter((q) => /from `(users|revoked_tokens|api_keys)`/.test(q))).toEqual([]);
  });

  it('refuses at once a user deleted, demoted or re-keyed behind the service’s back', async () => {
    server = await startTestServer();
    const admin = await signupAdmin(server);
    const other = await buildUser(server, admin, 'admin');
    const key = (await server.as(other.token).post('/auths/api_key', {})).body.api_key as string;
    expect((await server.as(other.token).get('/auths/admin/config')).status).toBe(200);
    expect((await server.as(key).get('/auths/')).status).toBe(200);

    // SQLite's update hooks drop the caches before the write returns; PostgreSQL's change notices
    // arrive on their own connection, within a second (the several-instances contract).
    const refused = async (request: () => Promise<{ status: number }>, status: number) => {
      if (!testingOnPostgres()) expect((await request()).status).toBe(status);
      else await expect.poll(async () => (await request()).status, { timeout: 1000, interval: 20 }).toBe(status);
    };
    await server.services.db('users').where({ id: other.id }).update({ role: 'user' });
    await refused(() => server!.as(other.token).get('/auths/admin/config'), 403);
    await server.services.db('api_keys').where({ user_id: other.id }).update({ key_hash: 'replaced' });
    await refused(() => server!.as(key).get('/auths/'), 401);
    await server.services.db('users').where({ id: other.id }).delete();
    await refused(() => server!.as(other.token).get('/auths/'), 401);
  });

  it('refuses a signed-out token at once, and after a restart of the auth cache from the database', async () => {
    server = await startTestServer();
    const admin = await signupAdmin(server);
    const user = await buildUser(server, admin, 'user');
    expect((await server.as(user.token).get('/auths/')).status).toBe(200);
    expect((await server.as(user.token).get('/auths/signout')).status).toBe(200);
    expect((await server.as(user.token).get('/auths/')).status).toBe(401);
    // Still refused once the revoked ids are read back from the table.
    await server.services.db('revoked_tokens').insert({ token_id: 'unrelated', expires_at: null });
    expect((await server.as(user.token).get('/auths/')).status).toBe(401);
  });
});
