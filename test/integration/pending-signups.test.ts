import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';

describe('admins hear of pending sign-ups live', () => {
  let server: TestServer;
  let admin: TestUser;
  let user: TestUser;
  const sockets: Socket[] = [];
  /** Every `users:pending` payload each socket received, in order. */
  const heard = new Map<Socket, number[]>();

  function connect(token: string): Promise<Socket> {
    const socket = io(server.url, { transports: ['websocket'], reconnection: false, forceNew: true, auth: { token } });
    sockets.push(socket);
    heard.set(socket, []);
    socket.on('users:pending', (payload: { count: number }) => heard.get(socket)?.push(payload.count));
    return new Promise((resolve, reject) => {
      socket.once('connect', () => resolve(socket));
      socket.once('connect_error', reject);
    });
  }

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    user = await buildUser(server, admin, 'user');
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await server?.close();
  });

  it('tells every admin the number waiting when someone signs up, and again when they are approved; never other users', async () => {
    const adminSocket = await connect(admin.token);
    const userSocket = await connect(user.token);
    const signup = await server.anon.post('/auths/signup', { name: 'Grace', email: 'grace@example.com', password: 'grace-password' });
    expect(signup.body.role).toBe('pending');
    await expect.poll(() => heard.get(adminSocket), { timeout: 5000 }).toEqual([1]);

    const list = await server.as(admin.token).get('/api/v1/users/?role=pending');
    expect(list.body.count).toBe(1);
    expect(list.body.users.map((u: { email: string }) => u.email)).toEqual(['grace@example.com']);

    await server.as(admin.token).post(`/api/v1/users/${signup.body.id}/update`, { role: 'user' });
    await expect.poll(() => heard.get(adminSocket), { timeout: 5000 }).toEqual([1, 0]);
    expect((await server.as(admin.token).get('/api/v1/users/?role=pending')).body.count).toBe(0);
    expect(heard.get(userSocket)).toEqual([]);
  });

  it('sends nothing for changes that leave the number as it was (activity, renames)', async () => {
    const adminSocket = await connect(admin.token);
    await server.as(admin.token).post(`/api/v1/users/${user.id}/update`, { name: 'Renamed' });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(heard.get(adminSocket)).toEqual([]);
  });

  it('filters the user list by role for admins only, and refuses an unknown role', async () => {
    expect((await server.as(user.token).get('/api/v1/users/?role=pending')).status).toBe(403);
    const bad = await server.as(admin.token).get('/api/v1/users/?role=owner');
    expect([400, 422]).toContain(bad.status);
    expect(bad.body.detail).toMatch(/role/);
  });
});
