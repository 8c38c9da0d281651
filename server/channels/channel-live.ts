import type { Role } from '../contracts/auth';
import type { ChannelEvent } from '../contracts/channels';
import type { Logger } from '../platform/log';
import type { LiveSocket, RealtimeHub } from '../realtime';
import type { ChannelAccess } from './channel-access';
import { CHANNEL_EVENTS, channelRoom } from './channel-events';

/** Table writes that can change who may read which channel (or whether channels exist at all). */
export const ACCESS_TABLES = new Set(['channels', 'group_members', 'config']);
/** How long access re-checks wait to gather several changes into one pass. */
const RESYNC_DELAY_MS = 50;
/** A socket's typing notices closer together than this are dropped. */
const TYPING_EVERY_MS = 300;

const ROOM_PREFIX = 'channel:';

/** A `typing` frame a client sends: `{channel_id, message_id?, data: {type: 'typing', data: {typing}}}` (Open WebUI's shape). */
function typingOf(payload: unknown): { channelId: string; messageId: string | null; typing: boolean } | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const p = payload as { channel_id?: unknown; message_id?: unknown; data?: { type?: unknown; data?: { typing?: unknown } } };
  if (typeof p.channel_id !== 'string' || p.channel_id.length > 200 || p.data?.type !== 'typing') return undefined;
  const messageId = typeof p.message_id === 'string' && p.message_id.length <= 200 ? p.message_id : null;
  return { channelId: p.channel_id, messageId, typing: p.data.data?.typing !== false };
}

/**
 * Live subscriptions: a socket joins the room of a channel only after the access check says its
 * person may read it, on connecting (and on `join-channels`, whose acknowledgement comes once the
 * rooms are joined). Every change that can alter access — a channel's members, group
 * memberships, the ENABLE_CHANNELS switch (any instance's, through the change feed), an
 * account's role — checks the sockets again: rooms are left the moment access ends, joined when
 * it starts, and the person's sockets hear `channels` so their list refreshes. A revoked session
 * loses its socket altogether (the realtime hub). Typing notices go to the room, from subscribed
 * sockets only.
 */
export function createChannelLive(deps: { realtime: RealtimeHub; access: ChannelAccess; watch: (onChange: (table: string) => void) => void; log: Logger }) {
  const { realtime, access, log } = deps;
  const queues = new WeakMap<LiveSocket, Promise<void>>();
  const lastTyping = new WeakMap<LiveSocket, number>();
  const subscribed = new WeakSet<LiveSocket>();
  let resyncTimer: NodeJS.Timeout | undefined;

  async function syncNow(socket: LiveSocket): Promise<void> {
    const want = new Set<string>();
    if (socket.data.role !== 'pending' && (await access.enabled())) {
      for (const grant of await access.readableChannels({ id: socket.data.userId, role: socket.data.role as Role })) want.add(channelRoom(grant.row.id));
    }
    if (socket.disconnected) return;
    let changed = false;
    for (const room of [...socket.rooms]) {
      if (room.startsWith(ROOM_PREFIX) && !want.has(room)) {
        void socket.leave(room);
        changed = true;
      }
    }
    for (const room of want) {
      if (!socket.rooms.has(room)) {
        void socket.join(room);
        changed = true;
      }
    }
    if (changed && subscribed.has(socket)) {
      const event: ChannelEvent = { channel_id: '', message_id: null, data: { type: 'channels', data: null }, user: null };
      socket.emit(CHANNEL_EVENTS, event);
    }
    subscribed.add(socket);
  }

  /** Checks one socket's rooms again; checks of one socket run one after another. */
  function sync(socket: LiveSocket): Promise<void> {
    const next = (queues.get(socket) ?? Promise.resolve()).then(() => syncNow(socket)).catch((error: unknown) => log.warn({ err: error }, 'checking channel subscriptions failed'));
    queues.set(socket, next);
    return next;
  }

  async function syncAll(): Promise<void> {
    await Promise.all(realtime.localSockets().map((socket) => sync(socket)));
  }

  function wire(socket: LiveSocket): void {
    void sync(socket);
    socket.on('join-channels', (...args: unknown[]) => {
      const ack = args.find((a): a is (joined: string[]) => void => typeof a === 'function');
      void sync(socket).then(() => ack?.([...socket.rooms].filter((r) => r.startsWith(ROOM_PREFIX)).map((r) => r.slice(ROOM_PREFIX.length))));
    });
    socket.on(CHANNEL_EVENTS, (payload: unknown) => {
      const typing = typingOf(payload);
      if (!typing) return;
      const room = channelRoom(typing.channelId);
      if (!socket.rooms.has(room)) return;
      const now = Date.now();
      if (typing.typing && now - (lastTyping.get(socket) ?? 0) < TYPING_EVERY_MS) return;
      lastTyping.set(socket, now);
      const event: ChannelEvent = {
        channel_id: typing.channelId,
        message_id: typing.messageId,
        data: { type: 'typing', data: { typing: typing.typing } },
        user: { id: socket.data.userId, name: socket.data.name },
      };
      socket.to(room).emit(CHANNEL_EVENTS, event);
    });
  }

  realtime.onConnection(wire);
  realtime.onRoleChange((socket) => void sync(socket));
  deps.watch((table) => {
    if (!ACCESS_TABLES.has(table) || resyncTimer) return;
    resyncTimer = setTimeout(() => {
      resyncTimer = undefined;
      void syncAll();
    }, RESYNC_DELAY_MS);
    resyncTimer.unref();
  });

  return {
    /** Brings every socket of this instance in line with current access, now (after a change made here). */
    syncAll,
    close(): void {
      if (resyncTimer) clearTimeout(resyncTimer);
      resyncTimer = undefined;
    },
  };
}
export type ChannelLive = ReturnType<typeof createChannelLive>;
