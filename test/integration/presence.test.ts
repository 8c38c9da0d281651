import { io, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';

const U = '/api/v1/users';

/** Polls `check` every 50 ms until it holds; returns the milliseconds it took. */
async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('live presence over socket.io', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  const sockets: Socket[] = [];

  /** Opens a real socket.io connection and waits until it is accepted or refused. */
  function connect(options: { token?: string; header?: string; cookie?: string }): Promise<Socket> {
    const socket = io(server.url, {
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      auth: options.token ? { token: options.token } : {},
      extraHeaders: {
        ...(options.header ? { authorization: `Bearer ${options.header}` } : {}),
        ...(options.cookie ? { cookie: `token=${options.cookie}` } : {}),
      },
    });
    sockets.push(socket);
    return new Promise((resolve, reject) => {
      socket.once('connect', () => resolve(socket));
      socket.once('connect_error', (error) => reject(error));
    });
  }

  const activeIds = async (viewer: TestUser): Promise<string[]> => (await server.as(viewer.token).get(`${U}/active`)).body.user_ids;
  const isActive = async (id: string): Promise<boolean> => (await server.as(admin.token).get(`${U}/${id}/active`)).body.active;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin, 'user', 'Alice');
    bob = await buildUser(server, admin, 'user', 'Bob');
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.disconnect();
  });
  afterAll(async () => {
    await server.close();
  });

  it('reports a user active while at least one of two connections is open', async () => {
    expect(await activeIds(bob)).toEqual([]);
    const first = await connect({ token: alice.token });
    const second = await connect({ token: alice.token });
    await until(async () => (await activeIds(bob)).includes(alice.id), 2000);
    expect(await activeIds(bob)).toEqual([alice.id]);
    expect(await isActive(alice.id)).toBe(true);
    expect((await server.as(bob.token).get(`${U}/${alice.id}`)).body.active).toBe(true);

    first.disconnect();
    await new Promise((r) => setTimeout(r, 300));
    expect(await isActive(alice.id)).toBe(true);

    second.disconnect();
    const took = await until(async () => !(await isActive(alice.id)), 2000);
    expect(took).toBeLessThan(1000);
    expect(await activeIds(bob)).toEqual([]);
    expect((await server.as(bob.token).get(`${U}/${alice.id}`)).body.active).toBe(false);
  });

  it('tracks two users independently', async () => {
    const a = await connect({ token: alice.token });
    await connect({ token: bob.token });
    await until(async () => (await activeIds(admin)).length === 2, 2000);
    expect((await activeIds(admin)).sort()).toEqual([alice.id, bob.id].sort());
    a.disconnect();
    await until(async () => (await activeIds(admin)).length === 1, 2000);
    expect(await activeIds(admin)).toEqual([bob.id]);
  });

  it('accepts the JWT in the handshake, the Authorization header, the cookie, or an API key', async () => {
    await connect({ header: alice.token });
    await connect({ cookie: bob.token });
    await until(async () => (await activeIds(admin)).length === 2, 2000);
    for (const s of sockets.splice(0)) s.disconnect();
    await until(async () => (await activeIds(admin)).length === 0, 2000);

    const key = (await server.as(alice.token).post('/api/v1/auths/api_key')).body.api_key as string;
    await connect({ token: key });
    await until(async () => isActive(alice.id), 2000);
  });

  it('refuses connections without valid credentials, which never count as active', async () => {
    await expect(connect({})).rejects.toThrow(/not authenticated/i);
    await expect(connect({ token: 'garbage' })).rejects.toThrow(/invalid/i);
    await expect(connect({ token: `${alice.token}x` })).rejects.toThrow(/invalid/i);
    expect(await activeIds(admin)).toEqual([]);
  });

  it('pushes events to every open client of a user, and only theirs', async () => {
    const a1 = await connect({ token: alice.token });
    const a2 = await connect({ token: alice.token });
    const b = await connect({ token: bob.token });
    const got: string[] = [];
    a1.on('ping-test', (p: { n: number }) => got.push(`a1:${p.n}`));
    a2.on('ping-test', (p: { n: number }) => got.push(`a2:${p.n}`));
    b.on('ping-test', (p: { n: number }) => got.push(`b:${p.n}`));
    server.services.realtime.emitToUser(alice.id, 'ping-test', { n: 1 });
    await until(async () => got.length >= 2, 2000);
    await new Promise((r) => setTimeout(r, 100));
    expect(got.sort()).toEqual(['a1:1', 'a2:1']);
  });

  it('drops the connections of a deleted user at once', async () => {
    const carol = await buildUser(server, admin, 'user', 'Carol');
    const socket = await connect({ token: carol.token });
    const closed = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
    await until(async () => isActive(carol.id), 2000);
    expect((await server.as(admin.token).delete(`${U}/${carol.id}`)).status).toBe(200);
    expect(await closed).toBe('io server disconnect');
    expect(await activeIds(admin)).not.toContain(carol.id);
  });

  it('notices a connection that went silent (no pongs) within the ping window of about 10 s', async () => {
    const silent = await connect({ token: bob.token });
    await until(async () => isActive(bob.id), 2000);
    // Stop answering the server's pings, as a machine that dropped off the network would.
    const engine = silent.io.engine as unknown as { _sendPacket: (type: string, ...rest: unknown[]) => void };
    const send = engine._sendPacket.bind(engine);
    engine._sendPacket = (type, ...rest) => {
      if (type !== 'pong') send(type, ...rest);
    };
    const took = await until(async () => !(await isActive(bob.id)), 15_000);
    expect(took).toBeLessThan(11_000);
  }, 20_000);
});
