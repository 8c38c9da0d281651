import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { memorySecretStore } from '../../server/secrets';
import { FEED_APPLICATION_NAME } from '../../server/platform/db/table-changes-postgres';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { createTestDatabase, dropTestDatabase, startPostgresCluster, testClusterUrl, type PostgresCluster } from '../helpers/postgres';
import { startTestServer, type TestServer } from '../helpers/server';

/** How soon a change made on one instance must hold on the other. */
const WITHIN_MS = 1_000;

/** Polls `check` until it returns true, failing after `WITHIN_MS`; answers the time it took. */
async function within(check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > WITHIN_MS) throw new Error(`not seen within ${WITHIN_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('two instances on one PostgreSQL database', () => {
  let cluster: PostgresCluster | undefined;
  let baseUrl: string;
  const dbName = `parley_two_${process.pid}`;
  let a: TestServer;
  let b: TestServer;
  let admin: TestUser;
  let secrets: ReturnType<typeof memorySecretStore>;
  let databaseUrl: string;

  beforeAll(async () => {
    // The run's cluster on PARLEY_TEST_DB=postgres, else one of this file's own.
    baseUrl = testClusterUrl() ?? (cluster = await startPostgresCluster()).baseUrl;
    const url = await createTestDatabase(baseUrl, dbName);
    // Each instance has its own data dir; both share the database and the signing secret.
    secrets = memorySecretStore();
    databaseUrl = url;
    a = await startTestServer({ secrets, envVars: { PARLEY_DATABASE_URL: url } });
    b = await startTestServer({ secrets, envVars: { PARLEY_DATABASE_URL: url } });
    admin = await signupAdmin(a);
  });

  const sockets: Socket[] = [];
  /** A real socket.io connection to `server`, once accepted. */
  function connect(server: TestServer, token: string): Promise<Socket> {
    const socket = io(server.url, { transports: ['websocket'], reconnection: false, forceNew: true, auth: { token } });
    sockets.push(socket);
    return new Promise((resolve, reject) => {
      socket.once('connect', () => resolve(socket));
      socket.once('connect_error', reject);
    });
  }

  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await a?.close();
    await b?.close();
    await dropTestDatabase(baseUrl, dbName).catch(() => undefined);
    cluster?.stop();
  });

  it('a sign-out on A refuses the token on B within a second', async () => {
    const user = await buildUser(a, admin, 'user');
    // B has seen (and may cache) the session before it ends.
    expect((await b.as(user.token).get('/api/v1/auths/')).status).toBe(200);
    expect((await a.as(user.token).get('/api/v1/auths/signout')).status).toBe(200);
    await within(async () => (await b.as(user.token).get('/api/v1/auths/')).status === 401);
  });

  it('an API key deleted on A is refused on B within a second', async () => {
    const user = await buildUser(a, admin, 'user');
    const key = (await a.as(user.token).post('/api/v1/auths/api_key')).body.api_key as string;
    expect(key).toMatch(/^sk-/);
    expect((await b.as(key).get('/api/v1/auths/')).status).toBe(200);
    expect((await a.as(user.token).delete('/api/v1/auths/api_key')).status).toBe(200);
    await within(async () => (await b.as(key).get('/api/v1/auths/')).status === 401);
  });

  it('a demotion on A takes the admin rights away on B within a second', async () => {
    const deputy = await buildUser(a, admin, 'admin', 'Deputy');
    expect((await b.as(deputy.token).get('/api/v1/users/all')).status).toBe(200);
    const demoted = await a.as(admin.token).post(`/api/v1/users/${deputy.id}/update`, { name: deputy.name, email: deputy.email, role: 'user' });
    expect(demoted.status).toBe(200);
    await within(async () => (await b.as(deputy.token).get('/api/v1/users/all')).status === 403);
    expect((await b.as(deputy.token).get('/api/v1/auths/')).body.role).toBe('user');
  });

  it('a model changed on A reads changed on B within a second', async () => {
    const created = await a.as(admin.token).post('/api/v1/models/create', { id: 'shared-model', name: 'Before', base_model_id: 'base-model' });
    expect(created.status).toBe(200);
    // B reads (and caches) the model, then A renames it.
    expect((await b.as(admin.token).get('/api/v1/models/model?id=shared-model')).body.name).toBe('Before');
    const current = (await a.as(admin.token).get('/api/v1/models/model?id=shared-model')).body;
    expect((await a.as(admin.token).post('/api/v1/models/model/update?id=shared-model', { ...current, name: 'After' })).status).toBe(200);
    await within(async () => (await b.as(admin.token).get('/api/v1/models/model?id=shared-model')).body.name === 'After');
    // A deletion on A is seen on B as well (a missing model answers 401, as the interface says).
    expect((await a.as(admin.token).delete('/api/v1/models/model/delete?id=shared-model')).status).toBe(200);
    await within(async () => (await b.as(admin.token).get('/api/v1/models/model?id=shared-model')).status === 401);
  });

  it('an admin setting changed on A holds on B within a second', async () => {
    const signup = (server: TestServer, n: number) => server.anon.post('/api/v1/auths/signup', { name: `Newcomer ${n}`, email: `newcomer${n}@example.com`, password: 'newcomer-password' });
    // B reads (and keeps) the sign-up setting first.
    expect((await b.as(admin.token).get('/api/v1/auths/admin/config')).body.ENABLE_SIGNUP).toBe(true);
    expect((await a.as(admin.token).post('/api/v1/auths/admin/config', { ENABLE_SIGNUP: false })).status).toBe(200);
    let n = 0;
    await within(async () => (await signup(b, ++n)).status === 403);
    expect((await a.as(admin.token).post('/api/v1/auths/admin/config', { ENABLE_SIGNUP: true })).status).toBe(200);
    await within(async () => (await b.as(admin.token).get('/api/v1/auths/admin/config')).body.ENABLE_SIGNUP === true);
  });

  it('a user connected to A is shown active on B, and inactive once they leave', async () => {
    const alice = await buildUser(a, admin, 'user', 'Alice');
    const activeOnB = async () => ((await b.as(admin.token).get('/api/v1/users/active')).body.user_ids as string[]).includes(alice.id);
    expect(await activeOnB()).toBe(false);
    const socket = await connect(a, alice.token);
    await within(activeOnB);
    expect((await b.as(admin.token).get(`/api/v1/users/${alice.id}/active`)).body.active).toBe(true);
    socket.disconnect();
    await within(async () => !(await activeOnB()));
  });

  it('a live event for a user, sent on B, reaches their socket on A', async () => {
    const carol = await buildUser(a, admin, 'user', 'Carol');
    const socket = await connect(a, carol.token);
    // What ingestion progress or a generated chat title does on the instance that did the work.
    const received = new Promise<unknown>((resolve) => socket.once('chat:title', resolve));
    b.services.realtime.emitToUser(carol.id, 'chat:title', { chat_id: 'c1', title: 'Made on B' });
    expect(await received).toEqual({ chat_id: 'c1', title: 'Made on B' });
    socket.disconnect();
  });

  it('deleting a user on B drops their live connection on A', async () => {
    const bob = await buildUser(a, admin, 'user', 'Bob');
    const socket = await connect(a, bob.token);
    const dropped = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
    const started = Date.now();
    expect((await b.as(admin.token).delete(`/api/v1/users/${bob.id}`)).status).toBe(200);
    expect(await dropped).toBe('io server disconnect');
    expect(Date.now() - started).toBeLessThan(WITHIN_MS);
  });

  it('ending a session on B closes its live connections on A: sign-out, password change, API key deleted, back to pending', async () => {
    const dana = await buildUser(a, admin, 'user', 'Dana');
    const signin = async (password: string) => (await b.anon.post('/api/v1/auths/signin', { email: dana.email, password })).body.token as string;
    const closedWithin = async (socket: Socket, act: () => Promise<{ status: number }>) => {
      const dropped = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
      expect((await act()).status).toBe(200);
      const answeredAt = Date.now();
      expect(await dropped).toBe('io server disconnect');
      expect(Date.now() - answeredAt).toBeLessThan(WITHIN_MS);
    };
    const laptop = await signin(dana.password);
    await closedWithin(await connect(a, laptop), () => b.as(laptop).get('/api/v1/auths/signout'));

    const phone = await signin(dana.password);
    const other = await connect(a, dana.token);
    const current = await connect(a, phone);
    await closedWithin(other, () => b.as(phone).post('/api/v1/auths/update/password', { password: dana.password, new_password: 'another password' }));
    expect(current.connected).toBe(true);

    const key = (await b.as(phone).post('/api/v1/auths/api_key')).body.api_key as string;
    await closedWithin(await connect(a, key), () => b.as(phone).delete('/api/v1/auths/api_key'));

    await closedWithin(current, () => b.as(admin.token).post(`/api/v1/users/${dana.id}/update`, { name: dana.name, email: dana.email, role: 'pending' }));
    await expect(connect(a, phone)).rejects.toThrow(/pending/i);
    // Presence on B hears of A's closed sockets through the database's notifications: asked until it has.
    await vi.waitFor(async () => expect((await b.as(admin.token).get('/api/v1/users/active')).body.user_ids).not.toContain(dana.id), { timeout: 10_000, interval: 100 });
  });

  it('a note saved on A is found by search on B, its save reaches a follower on B, and a memory added on A is recalled on B', async () => {
    const user = await buildUser(a, admin, 'user', 'Nora Notes');
    const note = (await a.as(user.token).post('/api/v1/notes/create', { title: 'Shared plan', data: { content: { md: 'first draft' } } })).body;
    // B builds its notes catalog now, so what follows must reach it as a change.
    expect((await b.as(user.token).get('/api/v1/notes/search?query=draft')).body.total).toBe(1);
    const socket = await connect(b, user.token);
    expect(await socket.emitWithAck('subscribe', { topic: `note:${note.id}` })).toEqual({ ok: true });
    const live = new Promise<{ version: number }>((resolve) => socket.once('note-events', resolve));
    await a.as(user.token).post(`/api/v1/notes/${note.id}/update`, { data: { content: { md: 'final wording about zeppelins' } }, version: 1 });
    expect((await live).version).toBe(2);
    await within(async () => (await b.as(user.token).get('/api/v1/notes/search?query=zeppelins')).body.total === 1);
    // B holds the person's memory index in memory before A adds to it.
    expect((await b.as(user.token).post('/api/v1/memories/query', { content: 'anything', k: 1 })).body.ids).toEqual([[]]);
    await a.as(user.token).post('/api/v1/memories/add', { content: 'I collect antique barometers' });
    await within(async () => (await b.as(user.token).post('/api/v1/memories/query', { content: 'barometers', k: 1 })).body.documents[0][0] === 'I collect antique barometers');
  });

  it('after the listening connections are cut, B still follows changes made on A', async () => {
    const user = await buildUser(a, admin, 'user');
    expect((await b.as(user.token).get('/api/v1/auths/')).status).toBe(200);
    // Ends both instances' LISTEN connections, as a database restart or a network cut would.
    const adminDb = new pg.Client({ connectionString: `${baseUrl}/${dbName}` });
    await adminDb.connect();
    try {
      const cut = await adminDb.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = $2', [dbName, FEED_APPLICATION_NAME]);
      expect(cut.rowCount).toBe(2);
    } finally {
      await adminDb.end();
    }
    expect((await a.as(user.token).get('/api/v1/auths/signout')).status).toBe(200);
    await within(async () => (await b.as(user.token).get('/api/v1/auths/')).status === 401);
    // Listening again: later changes still reach B's caches.
    const again = await buildUser(a, admin, 'admin');
    await within(async () => {
      const probe = new pg.Client({ connectionString: `${baseUrl}/${dbName}` });
      await probe.connect();
      try {
        const { rowCount } = await probe.query('SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND application_name = $2', [dbName, FEED_APPLICATION_NAME]);
        return rowCount === 2;
      } finally {
        await probe.end();
      }
    });
    expect((await b.as(again.token).get('/api/v1/users/all')).status).toBe(200);
    await a.as(admin.token).post(`/api/v1/users/${again.id}/update`, { name: again.name, email: again.email, role: 'user' });
    await within(async () => (await b.as(again.token).get('/api/v1/users/all')).status === 403);
  });

  it('an instance that stops takes its users out of presence at once', async () => {
    const c = await startTestServer({ secrets, envVars: { PARLEY_DATABASE_URL: databaseUrl } });
    try {
      const dana = await buildUser(a, admin, 'user', 'Dana');
      const activeOnA = async () => ((await a.as(admin.token).get('/api/v1/users/active')).body.user_ids as string[]).includes(dana.id);
      await connect(c, dana.token);
      await within(activeOnA);
      await c.close();
      await within(async () => !(await activeOnA()));
    } finally {
      await c.close();
    }
  });
});
