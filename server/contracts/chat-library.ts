import { z } from 'zod';
import { Chat, ChatListEntry } from './chats';

/** Query of GET /api/v1/chats/search. `text` holds words plus `tag:name`, `before:`/`after:`/`on:` `YYYY-MM-DD` filters. */
export const ChatSearchQuery = z.object({
  text: z.string().max(500, 'must be at most 500 characters').default(''),
  page: z.coerce.number().int('must be a whole number').min(1, 'must be 1 or more').max(100_000).default(1),
});
export type ChatSearchQuery = z.infer<typeof ChatSearchQuery>;

/** A search hit: the chat's list entry plus where the words were found. */
export const ChatSearchEntry = ChatListEntry.extend({
  /** The matching passage (a message, else the title), plain text; null when only filters matched. */
  snippet: z.string().nullable(),
  /** `[start, end)` character ranges of `snippet` that matched the words. */
  highlights: z.array(z.tuple([z.number(), z.number()])),
  /** The message the snippet is from (opening the hit shows it); null when the title or only filters matched. */
  message_id: z.string().nullable(),
});
export type ChatSearchEntry = z.infer<typeof ChatSearchEntry>;

/** Body of POST and DELETE /api/v1/chats/{id}/tags. */
export const ChatTagRequest = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(60, 'must be at most 60 characters'),
});
export type ChatTagRequest = z.infer<typeof ChatTagRequest>;

/** A tag with how many of the caller's chats carry it. */
export const ChatTagCount = z.object({
  name: z.string(),
  count: z.number(),
});
export type ChatTagCount = z.infer<typeof ChatTagCount>;

/**
 * GET /api/v1/chats/share/{share_id}: a read-only snapshot. `id` is the share id and `user_id` is
 * `shared-{chat_id}`, which `GET /api/v1/users/shared-{chat_id}` resolves to the owner.
 */
export const SharedChat = Chat.extend({
  share_id: z.string(),
  chat_id: z.string(),
  /** When the snapshot was taken (epoch seconds). */
  shared_at: z.number(),
});
export type SharedChat = z.infer<typeof SharedChat>;

/** Query of the export endpoints. */
export const ChatExportQuery = z.object({
  format: z.enum(['json', 'markdown'], { message: "must be 'json' or 'markdown'" }).default('json'),
});
export type ChatExportQuery = z.infer<typeof ChatExportQuery>;

/** A chat as Parley exports it: the whole message tree (every branch, sources, file references) and its organisation. */
export const ExportedChat = Chat.extend({
  /** Marks Parley's lossless export format. */
  parley_export: z.literal(1),
  /** Ids of the files attached to the chat. */
  attachment_ids: z.array(z.string()),
  /** Name of the folder it was filed in, if any. */
  folder_name: z.string().nullable(),
  /** Names of that folder and its parents, top level first ([] when in no folder); import recreates them. */
  folder_path: z.array(z.string()),
});
export type ExportedChat = z.infer<typeof ExportedChat>;

/** Body of POST /api/v1/chats/import: Parley's export, Open WebUI's export or ChatGPT's conversations.json entries. */
export const ChatImportRequest = z.object({
  chats: z.array(z.unknown()).min(1, 'must hold at least one chat').max(10_000, 'must hold at most 10,000 chats'),
});
export type ChatImportRequest = z.infer<typeof ChatImportRequest>;

/** What happened to one chat of an import. */
export const ChatImportResult = z.object({
  /** Position in the request's `chats`. */
  index: z.number(),
  title: z.string(),
  /** The format it was read as, or `unknown`. */
  format: z.enum(['parley', 'open-webui', 'chatgpt', 'unknown']),
  status: z.enum(['imported', 'skipped']),
  /** The new chat's id when imported; for a duplicate, the id of the chat already holding it. */
  id: z.string().nullable(),
  messages: z.number(),
  /** Messages left out (tool calls, images, empty system nodes, …). */
  skipped_messages: z.number(),
  /** Why the chat or some of its messages were skipped, in plain words. */
  notes: z.array(z.string()),
});
export type ChatImportResult = z.infer<typeof ChatImportResult>;

/** Answer of POST /api/v1/chats/import. */
export const ChatImportReport = z.object({
  imported: z.number(),
  skipped: z.number(),
  /** How many of the skipped chats were already among the caller's chats (the same chat id: a re-import). */
  duplicates: z.number(),
  chats: z.array(ChatImportResult),
});
export type ChatImportReport = z.infer<typeof ChatImportReport>;
