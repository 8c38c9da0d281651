import type { ChannelEvent, ChannelEventType } from '../contracts/channels';
import type { RealtimeHub } from '../realtime';

/** The socket.io event every channel update travels on (Open WebUI's name). */
export const CHANNEL_EVENTS = 'channel-events';

/** The room of a channel's subscribed sockets (joined only after an access check). */
export const channelRoom = (channelId: string) => `channel:${channelId}`;

/** Who caused an event. */
export interface EventActor {
  id: string;
  name: string;
}

/** Only the id and name of whoever caused an event go out. */
const actor = (user: EventActor | null | undefined): EventActor | null => (user ? { id: user.id, name: user.name } : null);

/**
 * Sends `channel-events` frames: to a channel's room (every member's sockets, on every instance,
 * encoded once), or to one person's sockets (their list changed, they were mentioned).
 */
export function createChannelEvents(realtime: Pick<RealtimeHub, 'emitToRoom' | 'emitToUser'>) {
  return {
    /** One frame to every subscribed member of a channel. */
    toChannel(channel: { id: string; name: string }, type: ChannelEventType, data: unknown, extra: { messageId?: string | null; user?: EventActor | null; tempId?: string } = {}): void {
      const event: ChannelEvent = {
        channel_id: channel.id,
        message_id: extra.messageId ?? null,
        data: { type, data },
        user: actor(extra.user),
        channel: { id: channel.id, name: channel.name },
        ...(extra.tempId ? { temp_id: extra.tempId } : {}),
      };
      realtime.emitToRoom(channelRoom(channel.id), CHANNEL_EVENTS, event);
    },

    /** One frame to every socket of one person. */
    toUser(userId: string, channelId: string, type: ChannelEventType, data: unknown, extra: { messageId?: string | null; user?: EventActor | null } = {}): void {
      const event: ChannelEvent = { channel_id: channelId, message_id: extra.messageId ?? null, data: { type, data }, user: actor(extra.user) };
      realtime.emitToUser(userId, CHANNEL_EVENTS, event);
    },
  };
}
export type ChannelEvents = ReturnType<typeof createChannelEvents>;
