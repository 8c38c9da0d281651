import type {
  AddMessageRequest,
  ArchiveRequest,
  Chat,
  ChatListEntry,
  ChatListQuery,
  ChatMessage,
  EditMessageRequest,
  NewChatRequest,
  NewChatResponse,
  PinRequest,
  SetCurrentMessageRequest,
  UpdateChatRequest,
} from '../contracts/chats';
import { CHAT_PAGE_SIZE } from '../contracts/chats';
import type { ChatAttachmentsResponse } from '../contracts/files';
import { fileForbidden, fileNotFound, presentAttachment, type FilesService } from '../files';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../platform/clock';
import { readJson, writeJson } from '../platform/db/json';
import { badRequest, conflict, forbidden } from '../platform/http/errors';
import { newId } from '../platform/ids';
import type { PermissionsService } from '../permissions';
import type { Role } from '../contracts/auth';
import type { AttachmentsRepo } from './attachments.repo';
import { chatForbidden, chatNotFound, messageNotFound } from './chat-errors';
import { latestLeafUnder, presentChat, presentChatEntry, presentMessage } from './chats.present';
import type { ChatRow, ChatsRepo, MessageRow, NewMessageRow } from './chats.repo';
import { TagSpellings } from './tag-names';

/** The caller, as chat rules see them. */
export interface ChatCaller {
  id: string;
  role: Role;
}

/** A message of a turn the completion pipeline saves. */
export interface TurnMessage {
  /** The id to save it under (made with `newId()` before the turn is written, so it can be named at once); a new one when absent. */
  id?: string;
  role: 'user' | 'assistant' | 'system';
  content: string;
  model?: string | null;
  status?: 'complete' | 'interrupted' | 'streaming';
  error?: string | null;
  usage?: unknown;
  sources?: unknown[];
  files?: unknown[];
  /** Tool calls made for the answer. */
  toolSteps?: unknown[];
  createdAt?: number;
}

/** Why an answer saved while streaming ends at what was saved (starts with "Stopped": Continue is offered). */
export const CUT_BY_RESTART = 'Stopped before the answer was complete: the service stopped';

/** Why an answer the person stopped ends where it does (starts with "Stopped": Continue is offered). */
export const STOPPED_BY_PERSON = 'Stopped before the answer was complete';

/** How long a stop waits for an answer another instance is still saving. */
const STREAMING_WAIT_MS = 5000;

/** Default title of a new chat. */
export const DEFAULT_CHAT_TITLE = 'New Chat';

/** Chats and their message trees. Only the owner sees or changes a chat. */
export function createChatsService(deps: {
  repo: ChatsRepo;
  attachments: AttachmentsRepo;
  files: FilesService;
  permissions: PermissionsService;
  clock: Clock;
  /** Throws 400 unless the folder is the user's (set by the folders domain). */
  requireFolder?: (userId: string, folderId: string) => Promise<void>;
}) {
  const { repo, attachments, files, clock } = deps;

  async function own(caller: ChatCaller, id: string): Promise<ChatRow> {
    const row = await repo.findById(id);
    if (!row) throw chatNotFound();
    if (row.user_id !== caller.id) throw chatForbidden();
    return row;
  }

  async function full(row: ChatRow): Promise<Chat> {
    return presentChat(row, await repo.messages(row.id));
  }

  async function appendOne(chat: ChatRow, parentId: string | null, message: TurnMessage): Promise<MessageRow> {
    const row = messageRow(chat.id, parentId, message, clock.now());
    await repo.appendMessages(chat.id, [row], row.id, clock.nowMs());
    return { ...row, seq: 0 };
  }

  async function resolveParent(chat: ChatRow, parentId: string | null | undefined): Promise<string | null> {
    if (parentId === undefined) return chat.current_message_id;
    if (parentId === null) return null;
    if (!(await repo.findMessage(chat.id, parentId))) throw badRequest(`Field 'parent_id': no message ${parentId} in this chat`, 'MESSAGE_NOT_FOUND');
    return parentId;
  }

  const page = (n: number) => ({ offset: (n - 1) * CHAT_PAGE_SIZE, limit: CHAT_PAGE_SIZE });

  return {
    /** The caller's chats, newest first, one page; archived ones never, pinned and filed ones on request. */
    async list(caller: ChatCaller, query: ChatListQuery): Promise<ChatListEntry[]> {
      const rows = await repo.list(caller.id, {
        archived: false,
        pinned: query.include_pinned ? 'any' : 'exclude',
        includeFolders: query.include_folders,
        ...page(query.page),
      });
      return rows.map(presentChatEntry);
    },

    /** Pinned chats (not archived). */
    async listPinned(caller: ChatCaller, pageNumber: number): Promise<ChatListEntry[]> {
      return (await repo.list(caller.id, { archived: false, pinned: 'only', includeFolders: true, ...page(pageNumber) })).map(presentChatEntry);
    },

    /** Archived chats. */
    async listArchived(caller: ChatCaller, pageNumber: number): Promise<ChatListEntry[]> {
      return (await repo.list(caller.id, { archived: true, pinned: 'any', includeFolders: true, ...page(pageNumber) })).map(presentChatEntry);
    },

    async create(caller: ChatCaller, body: NewChatRequest): Promise<NewChatResponse> {
      const nowMs = clock.nowMs();
      const now = Math.floor(nowMs / 1000);
      const title = body.title || body.chat?.title || DEFAULT_CHAT_TITLE;
      if (body.folder_id && deps.requireFolder) await deps.requireFolder(caller.id, body.folder_id);
      const row: ChatRow = {
        id: newId(),
        user_id: caller.id,
        title,
        pinned: false,
        archived: false,
        folder_id: body.folder_id ?? null,
        current_message_id: null,
        tags: '[]',
        share_id: null,
        created_at: now,
        updated_at: now,
        activity_ms: nowMs,
      };
      await repo.insert(row);
      return presentChatEntry(row);
    },

    async get(caller: ChatCaller, id: string): Promise<Chat> {
      return full(await own(caller, id));
    },

    /** Renames or (un)files a chat. */
    async update(caller: ChatCaller, id: string, body: UpdateChatRequest): Promise<Chat> {
      const row = await own(caller, id);
      const nowMs = clock.nowMs();
      const patch: Partial<ChatRow> = { updated_at: Math.floor(nowMs / 1000), activity_ms: nowMs };
      if (body.title !== undefined) patch.title = body.title || DEFAULT_CHAT_TITLE;
      if (body.folder_id && deps.requireFolder) await deps.requireFolder(caller.id, body.folder_id);
      if (body.folder_id !== undefined) patch.folder_id = body.folder_id;
      await repo.update(id, patch);
      return full({ ...row, ...patch });
    },

    /** Pins or unpins (toggles when `pinned` is not given). Does not move the chat in the list. */
    async pin(caller: ChatCaller, id: string, body: PinRequest): Promise<ChatListEntry> {
      const row = await own(caller, id);
      const pinned = body.pinned ?? !row.pinned;
      await repo.update(id, { pinned });
      return presentChatEntry({ ...row, pinned });
    },

    /** Archives or unarchives (toggles when `archived` is not given). */
    async archive(caller: ChatCaller, id: string, body: ArchiveRequest): Promise<ChatListEntry> {
      const row = await own(caller, id);
      const archived = body.archived ?? !row.archived;
      await repo.update(id, { archived });
      return presentChatEntry({ ...row, archived });
    },

    /** Deletes a chat, its messages and the attachments no other chat or knowledge base uses. */
    async delete(caller: ChatCaller, id: string): Promise<void> {
      await own(caller, id);
      if (caller.role !== 'admin' && !(await deps.permissions.effective(caller)).chat.delete) {
        throw forbidden('You are not allowed to delete chats', 'CHAT_DELETE_FORBIDDEN');
      }
      const fileIds = await attachments.fileIdsOf(id);
      const elsewhere = await attachments.attachedElsewhere(fileIds, id);
      await repo.delete(id);
      await files.deleteUnused(fileIds.filter((f) => !elsewhere.has(f)));
    },

    /** Adds a message under `parent_id` (default: the message shown last) and shows it. */
    async addMessage(caller: ChatCaller, chatId: string, body: AddMessageRequest): Promise<ChatMessage> {
      const chat = await own(caller, chatId);
      const parentId = await resolveParent(chat, body.parent_id);
      return presentMessage(await appendOne(chat, parentId, { role: body.role, content: body.content, model: body.model ?? null }));
    },

    /** Edits a message as a new sibling branch (the original stays in the history) and shows it. */
    async editMessage(caller: ChatCaller, chatId: string, messageId: string, body: EditMessageRequest): Promise<ChatMessage> {
      const chat = await own(caller, chatId);
      const original = await repo.findMessage(chatId, messageId);
      if (!original) throw messageNotFound();
      const role = original.role as TurnMessage['role'];
      // An edited answer keeps the sources and tool calls it was written from.
      const kept = role === 'assistant' ? { sources: readJson<unknown[]>(original.sources, []), toolSteps: readJson<unknown[]>(original.tool_steps ?? null, []) } : {};
      return presentMessage(await appendOne(chat, original.parent_id, { role, content: body.content, model: original.model, ...kept }));
    },

    /** Shows the branch through `message_id` (down to its newest leaf). */
    async setCurrent(caller: ChatCaller, chatId: string, body: SetCurrentMessageRequest): Promise<Chat> {
      const chat = await own(caller, chatId);
      const messages = await repo.messages(chatId);
      if (!messages.some((m) => m.id === body.message_id)) throw messageNotFound();
      const current = latestLeafUnder(messages, body.message_id);
      await repo.update(chatId, { current_message_id: current });
      return presentChat({ ...chat, current_message_id: current }, messages);
    },

    /** Makes the chat's attachments exactly these files (each must be the caller's). */
    async setAttachments(caller: ChatCaller, chatId: string, fileIds: readonly string[]): Promise<ChatAttachmentsResponse> {
      await own(caller, chatId);
      const unique = [...new Set(fileIds)];
      const rows = await files.findMany(unique);
      const byId = new Map(rows.map((r) => [r.id, r]));
      for (const fileId of unique) {
        const row = byId.get(fileId);
        if (!row) throw fileNotFound();
        if (row.user_id !== caller.id) throw fileForbidden();
      }
      await attachments.replace(chatId, unique, clock.now());
      return { id: chatId, attachments: unique.map((f) => presentAttachment(byId.get(f)!)) };
    },

    // ---- used by the completion pipeline and the task runner ----

    /** The caller's chat: 404 unknown, 403 someone else's. */
    requireOwn: own,

    /** The caller's chat (404/403 as `requireOwn`) and the ids of the files attached to it, read together. */
    async requireOwnWithAttachments(caller: ChatCaller, id: string): Promise<{ chat: ChatRow; attachmentIds: string[] }> {
      const found = await repo.findWithAttachmentIds(id);
      if (!found) throw chatNotFound();
      if (found.chat.user_id !== caller.id) throw chatForbidden();
      return { chat: found.chat, attachmentIds: found.fileIds };
    },

    /**
     * Where a completion's turn hangs: the given parent (must be in the chat), else the message
     * shown last; when regenerating, the user message that the shown answer replied to.
     */
    async resolveTurnParent(chat: ChatRow, parentId: string | null | undefined, regenerate: boolean): Promise<string | null> {
      if (parentId !== undefined || !regenerate || chat.current_message_id === null) return resolveParent(chat, parentId);
      const current = await repo.findMessage(chat.id, chat.current_message_id);
      return current?.role === 'assistant' ? current.parent_id : chat.current_message_id;
    },

    /** Ids of the files attached to a chat. */
    async attachmentIds(chatId: string): Promise<string[]> {
      return attachments.fileIdsOf(chatId);
    },

    /** Attaches files to a chat (files sent with a completion stay with the chat). */
    async attach(chatId: string, fileIds: readonly string[]): Promise<void> {
      await attachments.add(chatId, fileIds, clock.now());
    },

    /** Saves a turn (user message and/or answer) as a chain under `parentId`, and shows its last message. */
    async saveTurn(chatId: string, parentId: string | null, messages: readonly TurnMessage[]): Promise<string[]> {
      const now = clock.now();
      const rows: NewMessageRow[] = [];
      let parent = parentId;
      for (const message of messages) {
        const row = messageRow(chatId, parent, message, message.createdAt ?? now);
        rows.push(row);
        parent = row.id;
      }
      if (rows.length > 0) await repo.appendMessages(chatId, rows, rows[rows.length - 1]!.id, clock.nowMs());
      return rows.map((r) => r.id);
    },

    /** Saves the part of an answer that arrived so far (the answer is still `streaming`). */
    async saveAnswerProgress(messageId: string, content: string): Promise<void> {
      await repo.updateMessage(messageId, { content, updated_at: clock.now() });
    },

    /** Saves a streamed answer as it ended (complete or interrupted) and marks the chat active. */
    async finishAnswer(chatId: string, messageId: string, answer: Pick<TurnMessage, 'content' | 'status' | 'error' | 'usage' | 'sources' | 'toolSteps'>): Promise<void> {
      const patch = messageRow(chatId, null, { role: 'assistant', ...answer }, clock.now());
      const { content, status, error, usage, sources, tool_steps, updated_at } = patch;
      await repo.finishMessage(chatId, messageId, { content, status, error, usage, sources, tool_steps, updated_at }, clock.nowMs());
    },

    /**
     * Keeps a stopped answer as it was on the person's screen: `shown` replaces the saved text
     * when one begins with the other (the service may have saved words still on their way to the
     * screen, or not yet saved the last ones shown), and the answer is marked interrupted unless
     * it was complete and shown whole. An answer another instance is still saving is waited for.
     */
    async keepShownAnswer(caller: ChatCaller, chatId: string, messageId: string, shown: string): Promise<ChatMessage> {
      await own(caller, chatId);
      let row = await repo.findMessage(chatId, messageId);
      for (let waited = 0; row?.status === 'streaming' && waited < STREAMING_WAIT_MS; waited += 100) {
        await sleep(100);
        row = await repo.findMessage(chatId, messageId);
      }
      if (!row || row.role !== 'assistant') throw messageNotFound();
      if (row.content === shown && row.status !== 'streaming') return presentMessage(row);
      if (!row.content.startsWith(shown) && !shown.startsWith(row.content)) {
        throw conflict('The answer shown is not the beginning of the saved answer', 'ANSWER_CHANGED');
      }
      const patch = { content: shown, status: 'interrupted', error: row.error ?? STOPPED_BY_PERSON, updated_at: clock.now() } satisfies Partial<MessageRow>;
      await repo.updateMessage(messageId, patch);
      return presentMessage({ ...row, ...patch });
    },

    /**
     * Marks answers left `streaming` by a service that stopped mid-answer (a crash, a kill) as
     * interrupted, keeping what was saved; run once at start, before requests are served.
     */
    async markCutAnswers(): Promise<number> {
      return repo.updateMessagesInStatus('streaming', { status: 'interrupted', error: CUT_BY_RESTART });
    },

    /** True when the chat has exactly one answer (the moment to generate its title). */
    async hasSingleAnswer(chatId: string): Promise<boolean> {
      return (await repo.countAssistantMessages(chatId)) === 1;
    },

    /** Whether the chat still has the default title (nobody named it, no title was generated yet). */
    async hasDefaultTitle(chatId: string): Promise<boolean> {
      return (await repo.findById(chatId))?.title === DEFAULT_CHAT_TITLE;
    },

    /** Sets a generated title, unless the owner already chose one (the title is not the default any more). Returns whether it was set. */
    async setGeneratedTitle(chatId: string, title: string): Promise<boolean> {
      return repo.updateWhereTitle(chatId, DEFAULT_CHAT_TITLE, { title });
    },

    /** Sets generated tags, each in the spelling the owner already uses for it (matched whatever its case); returns what was saved. */
    async setTags(chatId: string, tags: readonly string[]): Promise<string[]> {
      const row = await repo.findById(chatId);
      if (!row) return [];
      const spelled = new TagSpellings(await repo.tagColumns(row.user_id)).spellAll(tags);
      await repo.update(chatId, { tags: writeJson(spelled) });
      return spelled;
    },

    async setFollowUps(messageId: string, followUps: readonly string[]): Promise<void> {
      await repo.updateMessage(messageId, { follow_ups: writeJson(followUps) });
    },
  };
}
export type ChatsService = ReturnType<typeof createChatsService>;

function messageRow(chatId: string, parentId: string | null, m: TurnMessage, now: number): NewMessageRow {
  return {
    id: m.id ?? newId(),
    chat_id: chatId,
    parent_id: parentId,
    role: m.role,
    content: m.content,
    model: m.model ?? null,
    status: m.status ?? 'complete',
    error: m.error ?? null,
    usage: m.usage === undefined || m.usage === null ? null : writeJson(m.usage),
    sources: m.sources && m.sources.length > 0 ? writeJson(m.sources) : null,
    files: m.files && m.files.length > 0 ? writeJson(m.files) : null,
    follow_ups: null,
    tool_steps: m.toolSteps && m.toolSteps.length > 0 ? writeJson(m.toolSteps) : null,
    created_at: now,
    updated_at: now,
  };
}
