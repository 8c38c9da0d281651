import { io, type Socket } from 'socket.io-client';
import type { ChannelEvent } from '../../server/contracts/channels';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';

export const C = '/api/v1/channels';

/** Turns ENABLE_CHANNELS on or off (as the admin). */
export async function setChannels(server: TestServer, admin: TestUser, on: boolean): Promise<void> {
  const res = await server.as(admin.token).post('/api/v1/auths/admin/config', { ENABLE_CHANNELS: on });
  if (res.status !== 200) throw new Error(`could not switch channels: ${res.status} ${res.text}`);
}

/** Creates a channel as `who`; answers its id. */
export async function createChannel(server: TestServer, who: TestUser, body: Record<string, unknown>): Promise<string> {
  const res = await server.as(who.token).post(`${C}/create`, body);
  if (res.status !== 200) throw new Error(`channel create failed: ${res.status} ${res.text}`);
  return res.body.id as string;
}

/** A service with channels on, an admin, three people and a channel `name` that the member reads and the manager manages (the outsider does neither). */
export interface ChannelCast {
  server: TestServer;
  admin: TestUser;
  member: TestUser;
  manager: TestUser;
  outsider: TestUser;
  channelId: string;
}

/** Starts a {@link ChannelCast}; the caller closes its server. */
export async function startChannelCast(name: string): Promise<ChannelCast> {
  const server = await startTestServer();
  const admin = await signupAdmin(server);
  const member = await buildUser(server, admin, 'user', 'Mia Member');
  const manager = await buildUser(server, admin, 'user', 'Max Manager');
  const outsider = await buildUser(server, admin, 'user', 'Otto Outsider');
  await setChannels(server, admin, true);
  const channelId = await createChannel(server, admin, { name, access_control: { read: { user_ids: [member.id] }, write: { user_ids: [manager.id] } } });
  return { server, admin, member, manager, outsider, channelId };
}

/** Posts a message as `who`; answers the message. */
export async function postMessage(server: TestServer, who: TestUser, channelId: string, body: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await server.as(who.token).post(`${C}/${channelId}/messages/post`, body);
  if (res.status !== 200) throw new Error(`post failed: ${res.status} ${res.text}`);
  return res.body;
}

/** A socket.io connection with every `channel-events` frame it received. */
export interface LiveClient {
  socket: Socket;
  events: ChannelEvent[];
  /** Resolves with the first frame (received already or later) that `match` accepts. */
  next(match: (e: ChannelEvent) => boolean, timeoutMs?: number): Promise<ChannelEvent>;
  /** The channels the server has subscribed this socket to (asks with `join-channels`). */
  joined(): Promise<string[]>;
  close(): void;
}

/** Connects as `token` and waits until the service has subscribed the socket to its channels. */
export async function connectLive(server: TestServer, token: string): Promise<LiveClient> {
  const socket = io(server.url, { transports: ['websocket'], reconnection: false, forceNew: true, auth: { token } });
  const events: ChannelEvent[] = [];
  const waiters: Array<{ match: (e: ChannelEvent) => boolean; resolve: (e: ChannelEvent) => void }> = [];
  socket.on('channel-events', (event: ChannelEvent) => {
    events.push(event);
    for (const w of [...waiters]) {
      if (w.match(event)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(event);
      }
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  const client: LiveClient = {
    socket,
    events,
    next(match, timeoutMs = 5_000) {
      const seen = events.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const waiter = { match, resolve: (e: ChannelEvent) => (clearTimeout(timer), resolve(e)) };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`no matching channel event within ${timeoutMs} ms; got ${JSON.stringify(events.map((e) => e.data.type))}`));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    joined: () => socket.timeout(5_000).emitWithAck('join-channels', {}) as Promise<string[]>,
    close: () => socket.disconnect(),
  };
  await client.joined();
  return client;
}

/** Waits `ms` (to show that something does NOT arrive). */
export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until true, failing after `timeoutMs`. */
export async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 2_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`not true within ${timeoutMs} ms`);
    await pause(20);
  }
}
