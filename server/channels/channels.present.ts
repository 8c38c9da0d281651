import type { AccessControl } from '../contracts/access';
import { DEFAULT_PROFILE_IMAGE_URL } from '../contracts/users';
import type { Channel, ChannelData, ChannelMessage, MessageFile, MessageMeta, Reaction } from '../contracts/channels';
import { readJson } from '../platform/db/json';
import type { ChannelActivity, ChannelRow } from './channels.repo';
import type { AuthorRow, MessageFileRow, MessageRow, ReactionRow, ReplyStats } from './messages.repo';

/** Stored milliseconds → the wire's nanoseconds (Open WebUI's unit for channels and messages). */
export const toNs = (ms: number): number => ms * 1_000_000;
/** The wire's nanoseconds → stored milliseconds. */
export const toMs = (ns: number): number => Math.floor(ns / 1_000_000);

/** A model answer not saved for this long was cut off (its instance stopped): it shows as interrupted. */
export const STALE_STREAM_MS = 15_000;

/** A channel's access control as stored (`null` = every verified account). */
export function accessOf(row: ChannelRow): AccessControl {
  return row.access_control === null ? null : readJson<AccessControl>(row.access_control, {});
}

/** A channel's data as stored. */
export function dataOf(row: ChannelRow): ChannelData | null {
  return row.data === null ? null : readJson<ChannelData>(row.data, {});
}

/** Row → Channel, as one person sees it. Managers see who the members are; others see only whether it is open to all. */
export function presentChannel(row: ChannelRow, view: { writeAccess: boolean; activity?: ChannelActivity }): Channel {
  const access = accessOf(row);
  const activity = view.activity;
  return {
    id: row.id,
    user_id: row.user_id ?? '',
    type: null,
    name: row.name,
    description: row.description,
    data: dataOf(row),
    meta: null,
    access_control: access === null || view.writeAccess ? access : {},
    created_at: toNs(Number(row.created_at)),
    updated_at: toNs(Number(row.updated_at)),
    write_access: view.writeAccess,
    unread_count: activity?.unread_count ?? 0,
    last_read_at: activity?.last_read_at === null || activity?.last_read_at === undefined ? null : toNs(activity.last_read_at),
    last_message_at: activity?.last_message_at === null || activity?.last_message_at === undefined ? null : toNs(activity.last_message_at),
  };
}

/** Where a member downloads a file of a message. */
export function messageFileUrl(channelId: string, messageId: string, fileId: string): string {
  return `/api/v1/channels/${encodeURIComponent(channelId)}/messages/${encodeURIComponent(messageId)}/files/${encodeURIComponent(fileId)}`;
}

/** What a page of messages is shown with: authors, reactions, thread counts, files (each read once per page). */
export interface MessageContext {
  authors: Map<string, AuthorRow>;
  reactions: Map<string, ReactionRow[]>;
  replies: Map<string, ReplyStats>;
  files: Map<string, MessageFileRow[]>;
  nowMs: number;
}

function groupReactions(list: readonly ReactionRow[] = []): Reaction[] {
  const byName = new Map<string, Reaction>();
  for (const r of list) {
    const entry = byName.get(r.name) ?? { name: r.name, users: [], count: 0 };
    entry.users.push({ id: r.user_id, name: r.user_name });
    entry.count += 1;
    byName.set(r.name, entry);
  }
  return [...byName.values()];
}

function presentFiles(row: MessageRow, list: readonly MessageFileRow[] = []): MessageFile[] {
  return list.map((f) => ({
    type: f.mime_type.startsWith('image/') && f.mime_type !== 'image/svg+xml' ? 'image' : 'file',
    id: f.file_id,
    name: f.filename,
    size: Number(f.size),
    content_type: f.mime_type,
    url: messageFileUrl(row.channel_id, row.id, f.file_id),
  }));
}

function presentMeta(row: MessageRow, nowMs: number): MessageMeta | null {
  if (row.meta === null) return null;
  const meta = readJson<MessageMeta>(row.meta, {});
  if (meta.status === 'streaming' && nowMs - Number(row.updated_at) > STALE_STREAM_MS) return { ...meta, status: 'interrupted' };
  return meta;
}

/** Row → ChannelMessage. */
export function presentMessage(row: MessageRow, ctx: MessageContext): ChannelMessage {
  const author = ctx.authors.get(row.user_id);
  const stats = ctx.replies.get(row.id);
  const files = presentFiles(row, ctx.files.get(row.id));
  return {
    id: row.id,
    user_id: row.user_id,
    channel_id: row.channel_id,
    parent_id: row.parent_id,
    content: row.content,
    data: files.length > 0 ? { files } : null,
    meta: presentMeta(row, ctx.nowMs),
    created_at: toNs(Number(row.created_at)),
    updated_at: toNs(Number(row.updated_at)),
    user: { id: row.user_id, name: author?.name ?? '', profile_image_url: author?.profile_image_url ?? DEFAULT_PROFILE_IMAGE_URL },
    reply_count: stats?.count ?? 0,
    latest_reply_at: stats?.latest ? toNs(stats.latest) : null,
    reactions: groupReactions(ctx.reactions.get(row.id)),
  };
}
