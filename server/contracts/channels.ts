import { z } from 'zod';
import { AccessControl } from './access';
import { groupedDigits } from './grouped-digits';

/** Longest message, in characters. */
export const MAX_MESSAGE_CHARS = 16_000;
/** Deepest Markdown nesting a message may hold (quotes, lists, brackets): deeper text is refused, never rendered. */
export const MAX_MARKDOWN_DEPTH = 24;
/** Most files or images on one message. */
export const MAX_MESSAGE_FILES = 10;
/** Most different reactions on one message. */
export const MAX_REACTION_NAMES = 40;
/** Newest messages a page holds by default, and at most. */
export const MESSAGE_PAGE = 50;
export const MESSAGE_PAGE_MAX = 200;

const Id = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');

/** `#name`: what people see in the sidebar; stored lower-cased, as Open WebUI does. */
export const ChannelName = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(64, 'must be at most 64 characters')
  .refine((v) => !/[\p{Cc}\p{Cf}]/u.test(v), 'must not hold control characters')
  .transform((v) => v.toLowerCase());

/** A channel's own resources for model answers: knowledge bases searched and tools offered. */
export const ChannelData = z.object({
  knowledge_ids: z.array(Id).max(20, 'at most 20 knowledge bases').optional(),
  tool_ids: z.array(Id).max(20, 'at most 20 tools').optional(),
});
export type ChannelData = z.infer<typeof ChannelData>;

/** Body of POST /api/v1/channels/create and /{id}/update. */
export const ChannelForm = z.object({
  name: ChannelName,
  description: z.string().max(2_000, 'must be at most 2,000 characters').nullable().optional(),
  data: ChannelData.nullable().optional(),
  /** Who are members: null = every verified account (read = see and post, write = manage). */
  access_control: AccessControl.optional(),
});
export type ChannelForm = z.infer<typeof ChannelForm>;

/** A channel as its members see it. Times are epoch nanoseconds (Open WebUI's unit for channels). */
export const Channel = z.object({
  id: z.string(),
  /** The creator ('' once their account is gone). */
  user_id: z.string(),
  /** Always null: standard channels (Open WebUI's group and DM types are not offered). */
  type: z.null(),
  name: z.string(),
  description: z.string().nullable(),
  data: ChannelData.nullable(),
  meta: z.null(),
  access_control: AccessControl,
  created_at: z.number(),
  updated_at: z.number(),
  /** Whether the caller manages it (change, delete, remove others' messages, ping everyone). */
  write_access: z.boolean(),
  /** Top-level messages by others since the caller's read position. */
  unread_count: z.number().int(),
  /** The caller's read position (epoch nanoseconds), null before their first visit. */
  last_read_at: z.number().nullable(),
  /** When the newest top-level message was posted, null in an empty channel. */
  last_message_at: z.number().nullable(),
});
export type Channel = z.infer<typeof Channel>;

/** A member of a channel (GET /{id}/members). */
export const ChannelMember = z.object({ id: z.string(), name: z.string() });
export type ChannelMember = z.infer<typeof ChannelMember>;

/** A file or image on a message, as posted: an upload of the poster's. */
export const MessageFileRef = z.object({
  type: z.enum(['file', 'image']).default('file'),
  id: Id,
});

/** Body of POST /{id}/messages/post and /{message_id}/update. */
export const MessageForm = z.object({
  content: z
    .string()
    .max(MAX_MESSAGE_CHARS, `must be at most ${groupedDigits(MAX_MESSAGE_CHARS)} characters`)
    .refine((v) => !v.includes('\u0000'), 'must not hold NUL characters'),
  /** Replies go into the thread of this top-level message. */
  parent_id: Id.nullable().optional(),
  data: z
    .object({ files: z.array(MessageFileRef).max(MAX_MESSAGE_FILES, `at most ${MAX_MESSAGE_FILES} files`).optional() })
    .nullable()
    .optional(),
  /** The client's own id for the message (echoed back in the live event, as Open WebUI's clients expect). */
  temp_id: z.string().max(100).optional(),
});
export type MessageForm = z.infer<typeof MessageForm>;

/** An upload for a message to come (POST /{id}/files answers a list of these). */
export const ChannelUpload = z.object({ id: z.string(), filename: z.string(), size: z.number(), mime_type: z.string(), url: z.string() });

/** A file on a message, with what the reader needs to show it. */
export const MessageFile = z.object({
  type: z.enum(['file', 'image']),
  id: z.string(),
  name: z.string(),
  size: z.number(),
  content_type: z.string().nullable(),
  /** Where the bytes are read (members of the channel only). */
  url: z.string(),
});
export type MessageFile = z.infer<typeof MessageFile>;

/** Who wrote a message. */
export const MessageAuthor = z.object({
  id: z.string(),
  name: z.string(),
  profile_image_url: z.string(),
});
export type MessageAuthor = z.infer<typeof MessageAuthor>;

/** One reaction name on a message and who gave it. */
export const Reaction = z.object({
  name: z.string(),
  users: z.array(z.object({ id: z.string(), name: z.string() })),
  count: z.number().int(),
});
export type Reaction = z.infer<typeof Reaction>;

/** A model's answer in a channel: which model, and how far it got. */
export const MessageMeta = z.object({
  model_id: z.string().optional(),
  model_name: z.string().optional(),
  /** `streaming` while the model answers; `interrupted` when it stopped early (`error` says why). */
  status: z.enum(['streaming', 'done', 'interrupted']).optional(),
  error: z.string().optional(),
  /** The knowledge bases and files the answer drew on (its `[n]` citations, in order). */
  sources: z.array(z.object({ id: z.string(), name: z.string() })).optional(),
  /** People this message pinged, and whether it pinged every member. */
  mentions: z.object({ user_ids: z.array(z.string()), everyone: z.boolean() }).optional(),
});
export type MessageMeta = z.infer<typeof MessageMeta>;

/** A message as members read it. */
export const ChannelMessage = z.object({
  id: z.string(),
  user_id: z.string(),
  channel_id: z.string(),
  parent_id: z.string().nullable(),
  content: z.string(),
  data: z.object({ files: z.array(MessageFile) }).nullable(),
  meta: MessageMeta.nullable(),
  created_at: z.number(),
  updated_at: z.number(),
  user: MessageAuthor,
  /** Replies in its thread (0 for replies). */
  reply_count: z.number().int(),
  latest_reply_at: z.number().nullable(),
  reactions: z.array(Reaction),
});
export type ChannelMessage = z.infer<typeof ChannelMessage>;

/** Query of GET /{id}/messages and /{message_id}/thread: newest first. */
export const MessagePageQuery = z.object({
  skip: z.coerce.number().int().min(0).max(10_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(MESSAGE_PAGE_MAX).default(MESSAGE_PAGE),
});

/** Body of POST /{message_id}/reactions/add and /remove: an emoji or a `:shortcode:`. */
export const ReactionForm = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(64, 'must be at most 64 characters')
    .refine((v) => !/[\s\p{Cc}]/u.test(v), 'must not hold spaces or control characters'),
});

/** Body of POST /{id}/read: the newest message seen (default: everything up to now). */
export const ReadForm = z.object({ message_id: Id.optional() });

/** A read position, as POST /{id}/read answers and the live `read` event carries. */
export const ReadPosition = z.object({ channel_id: z.string(), user_id: z.string(), last_read_at: z.number() });
export type ReadPosition = z.infer<typeof ReadPosition>;

/** Query of GET /api/v1/channels/search. */
export const ChannelSearchQuery = z.object({
  query: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  skip: z.coerce.number().int().min(0).max(10_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

/** A message found by search, with the channel it is in. */
export const ChannelSearchHit = ChannelMessage.extend({ channel: z.object({ id: z.string(), name: z.string() }) });
export type ChannelSearchHit = z.infer<typeof ChannelSearchHit>;

/**
 * What `channel-events` carries in `data.type` (server → members of the channel's room):
 * `message` (new), `message:update`, `message:delete`, `message:reply` (a thread's first message
 * changed: its reply count), `message:reaction:add` / `:remove`, `message:stream` (a model's
 * answer growing: `{id, offset, delta}`), `typing`, `read`, `channel:update`, `channel:delete`;
 * to one person's sockets: `channels` (their list of channels changed) and `mention`.
 */
export type ChannelEventType =
  | 'message'
  | 'message:update'
  | 'message:delete'
  | 'message:reply'
  | 'message:reaction:add'
  | 'message:reaction:remove'
  | 'message:stream'
  | 'typing'
  | 'read'
  | 'channel:update'
  | 'channel:delete'
  | 'channels'
  | 'mention';

/** One `channel-events` frame. */
export interface ChannelEvent {
  channel_id: string;
  message_id: string | null;
  data: { type: ChannelEventType; data: unknown };
  /** Who caused it. */
  user: { id: string; name: string } | null;
  channel?: { id: string; name: string };
  temp_id?: string;
}

/** `data` of a `message:stream` event: `delta` goes at `offset` of the answer's text. */
export interface MessageStreamDelta {
  id: string;
  offset: number;
  delta: string;
}

/** `data` of a `mention` event (to the person mentioned). */
export interface MentionNotice {
  channel_id: string;
  channel_name: string;
  message_id: string;
  parent_id: string | null;
  author: { id: string; name: string };
  /** The message's first characters. */
  preview: string;
  /** True when it pinged every member (@all, @here). */
  everyone: boolean;
}
