import { z } from 'zod';

/** Chats shown per page of GET /api/v1/chats. */
export const CHAT_PAGE_SIZE = 60;

/** A boolean in a query string: `true`/`false`/`1`/`0`. */
const QueryBoolean = z
  .enum(['true', 'false', '1', '0'], { message: "must be 'true' or 'false'" })
  .transform((value) => value === 'true' || value === '1');

/** Query of GET /api/v1/chats. */
export const ChatListQuery = z.object({
  page: z.coerce.number().int('must be a whole number').min(1, 'must be 1 or more').max(1_000_000).default(1),
  /** Include pinned chats (left out by default: the UI lists them apart). */
  include_pinned: QueryBoolean.default(false),
  /** Include chats filed in folders (left out by default). */
  include_folders: QueryBoolean.default(false),
});
export type ChatListQuery = z.infer<typeof ChatListQuery>;

/** Query of the pinned and archived lists. */
export const ChatPageQuery = z.object({ page: ChatListQuery.shape.page });

const Title = z.string().trim().max(500, 'must be at most 500 characters');
const FolderId = z.string().min(1).max(100).nullable();

/** Body of POST /api/v1/chats/new. `chat.title` is accepted too, as the common workspace sends it. */
export const NewChatRequest = z.object({
  title: Title.optional(),
  folder_id: FolderId.optional(),
  chat: z.looseObject({ title: Title.optional() }).optional(),
});
export type NewChatRequest = z.infer<typeof NewChatRequest>;

/** Body of POST /api/v1/chats/{id}: rename or (un)file the chat. */
export const UpdateChatRequest = z.object({
  title: Title.optional(),
  folder_id: FolderId.optional(),
});
export type UpdateChatRequest = z.infer<typeof UpdateChatRequest>;

/** Body of POST /api/v1/chats/{id}/pin; without `pinned` the flag toggles. */
export const PinRequest = z.object({ pinned: z.boolean().optional() });
export type PinRequest = z.infer<typeof PinRequest>;

/** Body of POST /api/v1/chats/{id}/archive; without `archived` the flag toggles. */
export const ArchiveRequest = z.object({ archived: z.boolean().optional() });
export type ArchiveRequest = z.infer<typeof ArchiveRequest>;

/** Roles a stored message may have. */
export const MessageRole = z.enum(['system', 'user', 'assistant']);
export type MessageRole = z.infer<typeof MessageRole>;

const MessageContent = z.string().max(2_000_000, 'must be at most 2,000,000 characters');
const MessageId = z.string().min(1).max(100);

/** Body of POST /api/v1/chats/{id}/messages: appends a message under `parent_id` (default: the current leaf). */
export const AddMessageRequest = z.object({
  role: MessageRole,
  content: MessageContent,
  /** null starts a new root branch; omitted follows the message currently shown. */
  parent_id: MessageId.nullable().optional(),
  model: z.string().max(256).optional(),
});
export type AddMessageRequest = z.infer<typeof AddMessageRequest>;

/** Body of POST /api/v1/chats/{id}/messages/{message_id}: the edit becomes a new sibling branch. */
export const EditMessageRequest = z.object({ content: MessageContent });
export type EditMessageRequest = z.infer<typeof EditMessageRequest>;

/** Body of POST /api/v1/chats/{id}/current: shows the branch through `message_id`. */
export const SetCurrentMessageRequest = z.object({ message_id: MessageId });
export type SetCurrentMessageRequest = z.infer<typeof SetCurrentMessageRequest>;

/** Body of PATCH /api/v1/chats/{chat_id}/attachments: the chat's attachments become exactly these files. */
export const ChatAttachmentsRequest = z.object({
  attachment_ids: z.array(z.string().min(1).max(100)).max(1000),
});
export type ChatAttachmentsRequest = z.infer<typeof ChatAttachmentsRequest>;

/** A chat in a list. */
export interface ChatListEntry {
  id: string;
  user_id: string;
  title: string;
  created_at: number;
  updated_at: number;
  pinned: boolean;
  archived: boolean;
  folder_id: string | null;
}

/** A source a retrieval step cited for an answer. */
export interface MessageSource {
  /** Where it comes from: a file or knowledge base. */
  source: { id: string; name: string; type?: string };
  /** The cited passages. */
  document: string[];
  metadata: Array<Record<string, unknown>>;
  distances?: number[];
}

/** Token counts reported by the provider. */
export interface MessageUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
}

/** A message of a chat, with its place in the tree. */
export interface ChatMessage {
  id: string;
  parent_id: string | null;
  children_ids: string[];
  role: MessageRole;
  content: string;
  model: string | null;
  /** `complete`, or `interrupted` when the answer stopped early (the client left or the provider failed). */
  status: 'complete' | 'interrupted';
  error: string | null;
  usage: MessageUsage | null;
  sources: MessageSource[];
  files: Array<{ type: string; id: string }>;
  follow_ups: string[];
  created_at: number;
}

/** A chat with its messages. `messages` is the branch shown (root to `current_message_id`); `history` holds every branch. */
export interface Chat extends ChatListEntry {
  tags: string[];
  current_message_id: string | null;
  messages: ChatMessage[];
  history: { current_id: string | null; messages: Record<string, ChatMessage> };
}

/** The created chat of POST /api/v1/chats/new. */
export type NewChatResponse = Pick<ChatListEntry, 'id' | 'user_id' | 'title' | 'created_at' | 'updated_at'> & { pinned: boolean; archived: boolean; folder_id: string | null };
