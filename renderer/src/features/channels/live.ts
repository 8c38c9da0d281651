import type { QueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import type { ChannelEvent, MessageStreamDelta, Reaction, ReadPosition } from '../../../../server/contracts/channels';
import type { Channel, ChannelMessage } from '../../api/channels';

/** The sidebar's channel list. */
export const CHANNELS_KEY = ['channels'] as const;
/** A channel's loaded top-level messages, oldest first. */
export const messagesKey = (channelId: string) => ['channels', channelId, 'messages'] as const;
/** A thread's messages, its first message first. */
export const threadKey = (channelId: string, parentId: string) => ['channels', channelId, 'thread', parentId] as const;
export const membersKey = (channelId: string) => ['channels', channelId, 'members'] as const;

/** What a channel page holds: the newest messages loaded so far, and whether older ones exist. */
export interface MessagePage {
  messages: ChannelMessage[];
  hasOlder: boolean;
}

/** Who is typing where (channel, or `channel/thread`), and until when. */
type Typing = Map<string, Map<string, { name: string; until: number }>>;
let typing: Typing = new Map();
const typingListeners = new Set<() => void>();
/** How long a typing notice shows without a new one. */
const TYPING_SHOWS_MS = 4_000;

function setTyping(place: string, user: { id: string; name: string }, on: boolean): void {
  const next: Typing = new Map(typing);
  const people = new Map(next.get(place) ?? []);
  if (on) people.set(user.id, { name: user.name, until: Date.now() + TYPING_SHOWS_MS });
  else people.delete(user.id);
  next.set(place, people);
  typing = next;
  for (const l of typingListeners) l();
}

setInterval(() => {
  const now = Date.now();
  let changed = false;
  for (const people of typing.values()) {
    for (const [id, entry] of people) {
      if (entry.until >= now) continue;
      people.delete(id);
      changed = true;
    }
  }
  if (changed) {
    typing = new Map(typing);
    for (const l of typingListeners) l();
  }
}, 1_000);

/** Names of the people typing in a channel (or one of its threads), the caller excluded. */
export function useTyping(place: string, me: string): string[] {
  const state = useSyncExternalStore(
    (cb) => {
      typingListeners.add(cb);
      return () => typingListeners.delete(cb);
    },
    () => typing,
  );
  return [...(state.get(place)?.entries() ?? [])].filter(([id]) => id !== me).map(([, v]) => v.name);
}

/** The channel the person has open (its new messages are read, not counted as unread). */
let viewing: string | null = null;
export const setViewing = (channelId: string | null) => {
  viewing = channelId;
};
export const isViewing = (channelId: string) => viewing === channelId && document.visibilityState === 'visible';

/** Adds a message to a list unless it is there already; keeps the list in time order. */
function upsert(list: ChannelMessage[], message: ChannelMessage): ChannelMessage[] {
  const at = list.findIndex((m) => m.id === message.id);
  if (at >= 0) return list.map((m, i) => (i === at ? message : m));
  const next = [...list, message];
  return next.sort((a, b) => a.created_at - b.created_at);
}

function editMessage(qc: QueryClient, channelId: string, id: string, edit: (m: ChannelMessage) => ChannelMessage): void {
  qc.setQueryData<MessagePage>(messagesKey(channelId), (page) => (page ? { ...page, messages: page.messages.map((m) => (m.id === id ? edit(m) : m)) } : page));
  for (const [key] of qc.getQueriesData<ChannelMessage[]>({ queryKey: ['channels', channelId, 'thread'] })) {
    qc.setQueryData<ChannelMessage[]>(key, (list) => list?.map((m) => (m.id === id ? edit(m) : m)));
  }
}

/** Puts a message where it shows: the channel's list or its thread's. */
export function placeMessage(qc: QueryClient, message: ChannelMessage): void {
  if (message.parent_id) {
    qc.setQueryData<ChannelMessage[]>(threadKey(message.channel_id, message.parent_id), (list) => (list ? upsert(list, message) : list));
  } else {
    qc.setQueryData<MessagePage>(messagesKey(message.channel_id), (page) => (page ? { ...page, messages: upsert(page.messages, message) } : page));
  }
}

function editChannel(qc: QueryClient, channelId: string, edit: (c: Channel) => Channel): void {
  qc.setQueryData<Channel[]>(CHANNELS_KEY, (list) => list?.map((c) => (c.id === channelId ? edit(c) : c)));
}

/** Marks a channel read here at once (the service is told by the page). */
export function clearUnread(qc: QueryClient, channelId: string, at?: number): void {
  editChannel(qc, channelId, (c) => ({ ...c, unread_count: 0, ...(at ? { last_read_at: at } : {}) }));
}

/**
 * Applies one `channel-events` frame to what the UI holds: message lists and threads (new,
 * changed, deleted, reactions, a model's answer growing), the sidebar's unread counts, typing
 * notices, and the channel list when access or channels change.
 */
export function applyChannelEvent(qc: QueryClient, event: ChannelEvent, me: string): void {
  const { channel_id: channelId } = event;
  const { type, data } = event.data;
  switch (type) {
    case 'message': {
      const message = data as ChannelMessage;
      placeMessage(qc, message);
      if (event.user) setTyping(message.parent_id ? `${channelId}/${message.parent_id}` : channelId, event.user, false);
      const mine = message.user_id === me && !message.meta?.model_id;
      if (!mine && !message.parent_id && !isViewing(channelId)) editChannel(qc, channelId, (c) => ({ ...c, unread_count: c.unread_count + 1, last_message_at: message.created_at }));
      else editChannel(qc, channelId, (c) => ({ ...c, last_message_at: message.created_at }));
      return;
    }
    case 'message:update':
    case 'message:reply': {
      const message = data as ChannelMessage;
      editMessage(qc, channelId, message.id, (m) => ({ ...message, reactions: message.reactions ?? m.reactions }));
      return;
    }
    case 'message:delete': {
      const { id } = data as { id: string };
      qc.setQueryData<MessagePage>(messagesKey(channelId), (page) => (page ? { ...page, messages: page.messages.filter((m) => m.id !== id) } : page));
      for (const [key] of qc.getQueriesData<ChannelMessage[]>({ queryKey: ['channels', channelId, 'thread'] })) qc.setQueryData<ChannelMessage[]>(key, (list) => list?.filter((m) => m.id !== id));
      qc.removeQueries({ queryKey: threadKey(channelId, id) });
      return;
    }
    case 'message:reaction:add':
    case 'message:reaction:remove': {
      const { id, reactions } = data as { id: string; reactions: Reaction[] };
      editMessage(qc, channelId, id, (m) => ({ ...m, reactions }));
      return;
    }
    case 'message:stream': {
      const { id, offset, delta } = data as MessageStreamDelta;
      // Frames fit at their offset; one that overlaps what is shown adds only what is new, a gap waits for the final text.
      editMessage(qc, channelId, id, (m) => (m.content.length >= offset && m.content.length < offset + delta.length ? { ...m, content: m.content.slice(0, offset) + delta } : m));
      return;
    }
    case 'typing': {
      const on = (data as { typing?: boolean }).typing !== false;
      if (event.user) setTyping(event.message_id ? `${channelId}/${event.message_id}` : channelId, event.user, on);
      return;
    }
    case 'read': {
      const position = data as ReadPosition;
      if (position.user_id === me) clearUnread(qc, channelId, position.last_read_at);
      return;
    }
    case 'channels':
    case 'channel:update':
    case 'channel:delete':
      void qc.invalidateQueries({ queryKey: CHANNELS_KEY, exact: true });
      if (type === 'channel:update') void qc.invalidateQueries({ queryKey: membersKey(channelId) });
      return;
    default:
      return;
  }
}
