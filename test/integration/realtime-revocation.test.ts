import { io, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { manualClock, type ManualClock } from '../helpers/clock';
import { startTestServer, type TestServer } from '../helpers/server';

/** How soon after the ending request is answered a live connection of that session must be closed. */
const AT_ONCE_MS = 250;

/*
 * A session that ends (sign-out, password change, admin reset, demotion to pending, API key
 * deleted or replaced, API keys switched off, token expired) stops receiving live events: its
 * sockets close the moment it ends; the other sessions' sockets stay. Pending accounts never get one.
 */
describe('live connections of ended sessions', () => {
  let server: TestServer;
  let clock: ManualClock;
  let admin: TestUser;
  const sockets: Socket[] = [];

  function connect(credential: string): Promise<Socket> {
    const socket = io(server.url, { transports: ['websocket'], reconnection: false, forceNew: true, auth: { token: credential } });
    sockets.push(socket);
    return new Promise((resolve, reject) => {
      socket.once('connect', () => resolve(socket));
      socket.once('connect_error', reject);
    });
  }
  /** Resolves with the disconnect reason and when it came; fails when the socket is still open 3 s later. */
  const dropOf = (socket: Socket) =>
    new Promise<{ reason: string; at: number }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('socket still open')), 3_000);
      socket.once('disconnect', (reason) => {
        clearTimeout(timer);
        resolve({ reason, at: Date.now() });
      });
    });
  /** Runs `act` (the request that ends a session) and expects `socket` closed by the service by the time it is answered. */
  async function expectDropped(socket: Socket, act: () => Promise<unknown>): Promise<void> {
    const dropped = dropOf(socket);
    await act();
    const answeredAt = Date.now();
    const { reason, at } = await dropped;
    expect(reason).toBe('io server disconnect');
    expect(at - answeredAt).toBeLessThan(AT_ONCE_MS);
  }
  /** True when an event sent to `user` still reaches `socket`. */
  async function stillLive(socket: Socket, user: TestUser): Promise<boolean> {
    const got = new Promise<boolean>((resolve) => {
      socket.once('probe', () => resolve(true));
      setTimeout(() => resolve(false), 300);
    });
    server.services.realtime.emitToUser(user.id, 'probe', {});
    return got;
  }
  const signin = async (user: TestUser, password = user.password) => (await server.anon.post('/api/v1/auths/signin', { email: user.email, password })).body.token as string;
  const keyOf = async (user: TestUser) => (await server.as(user.token).post('/api/v1/auths/api_key')).body.api_key as string;
  const activeIds = async () => (await server.as(admin.token).get('/api/v1/users/active')).body.user_ids as string[];

  beforeAll(async () => {
    clock = manualClock();
    server = await startTestServer({ clock });
    admin = await signupAdmin(server);
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.disconnect();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('sign-out closes that session’s sockets and no other', async () => {
    const user = await buildUser(server, admin);
    const laptop = await signin(user);
    const leaving = await connect(laptop);
    const staying = await connect(user.token);
    await expectDropped(leaving, () => server.as(laptop).get('/api/v1/auths/signout'));
    expect(await stillLive(staying, user)).toBe(true);
    await expect(connect(laptop)).rejects.toThrow(/invalid/i);
  });

  it('a password change closes the other sessions’ sockets, keeping the current one and the API key’s', async () => {
    const user = await buildUser(server, admin);
    const current = await signin(user);
    const other = await connect(user.token);
    const here = await connect(current);
    const script = await connect(await keyOf(user));
    await expectDropped(other, () => server.as(current).post('/api/v1/auths/update/password', { password: user.password, new_password: 'a brand new password' }));
    expect(await stillLive(here, user)).toBe(true);
    expect(await stillLive(script, user)).toBe(true);
  });

  it('an admin’s password reset closes every session’s sockets', async () => {
    const user = await buildUser(server, admin);
    const first = await connect(user.token);
    const second = await connect(await signin(user));
    const drops = [dropOf(first), dropOf(second)];
    const reset = await server.as(admin.token).post(`/api/v1/users/${user.id}/update`, { name: user.name, email: user.email, role: 'user', password: 'set by the admin' });
    expect(reset.status).toBe(200);
    expect((await Promise.all(drops)).map((d) => d.reason)).toEqual(['io server disconnect', 'io server disconnect']);
  });

  it('demotion to pending closes every socket of the account, which then cannot open one or show as active', async () => {
    const user = await buildUser(server, admin);
    const key = await keyOf(user);
    const session = await connect(user.token);
    const script = await connect(key);
    const scriptDrop = dropOf(script);
    expect(await activeIds()).toContain(user.id);
    await expectDropped(session, () => server.as(admin.token).post(`/api/v1/users/${user.id}/update`, { name: user.name, email: user.email, role: 'pending' }));
    expect((await scriptDrop).reason).toBe('io server disconnect');
    await expect(connect(user.token)).rejects.toThrow(/pending/i);
    await expect(connect(key)).rejects.toThrow(/pending/i);
    expect(await activeIds()).not.toContain(user.id);
  });

  it('a pending account cannot open a socket and never shows as active', async () => {
    const pending = await buildUser(server, admin, 'pending');
    await expect(connect(pending.token)).rejects.toThrow(/pending/i);
    expect(await activeIds()).not.toContain(pending.id);
    expect((await server.as(admin.token).get(`/api/v1/users/${pending.id}/active`)).body.active).toBe(false);
  });

  it('deleting or replacing the API key closes the sockets opened with it, and switching keys off closes them all', async () => {
    const user = await buildUser(server, admin);
    const browser = await connect(user.token);
    const first = await connect(await keyOf(user));
    await expectDropped(first, () => server.as(user.token).delete('/api/v1/auths/api_key'));
    const second = await connect(await keyOf(user));
    await expectDropped(second, () => keyOf(user));
    const third = await connect(await server.as(user.token).get('/api/v1/auths/api_key').then((r) => r.body.api_key as string));
    await expectDropped(third, () => server.as(admin.token).delete(`/api/v1/auths/admin/users/${user.id}/api_key`));
    const fourth = await connect(await keyOf(user));
    try {
      await expectDropped(fourth, () => server.as(admin.token).post('/api/v1/auths/admin/config', { ENABLE_API_KEY: false }));
    } finally {
      await server.as(admin.token).post('/api/v1/auths/admin/config', { ENABLE_API_KEY: true });
    }
    expect(await stillLive(browser, user)).toBe(true);
  });

  it('a socket whose token expired is closed by the next check of open sockets', async () => {
    const user = await buildUser(server, admin);
    const socket = await connect(user.token);
    const other = await connect((await buildUser(server, admin)).token);
    await server.services.realtime.recheck();
    expect(socket.connected).toBe(true);
    clock.advance(8 * 86_400);
    const drop = dropOf(socket);
    const otherDrop = dropOf(other);
    await server.services.realtime.recheck();
    expect((await drop).reason).toBe('io server disconnect');
    expect((await otherDrop).reason).toBe('io server disconnect');
  });
});
