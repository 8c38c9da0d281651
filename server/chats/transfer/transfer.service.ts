import { createHash } from 'node:crypto';
import type { ChatImportReport, ChatImportResult, ExportedChat } from '../../contracts/chat-library';
import type { Clock } from '../../platform/clock';
import { forbidden } from '../../platform/http/errors';
import type { PermissionsService } from '../../permissions';
import type { AttachmentsRepo } from '../attachments.repo';
import { presentChat } from '../chats.present';
import type { ChatRow, ChatsRepo } from '../chats.repo';
import type { ChatCaller, ChatsService } from '../chats.service';
import { TagSpellings } from '../tag-names';
import { buildRows } from './build-rows';
import { ImportSkip, obj, str, type ImportedChat } from './imported-chat';
import { chatToMarkdown } from './markdown';
import { isChatGpt, readChatGpt } from './read-chatgpt';
import { isOpenWebUi, readOpenWebUi } from './read-open-webui';
import { isParleyExport, readParley } from './read-parley';

/**
 * The id an imported chat gets: the same for the same user and source chat, so a second import of
 * a file finds the chats the first one made (a UUID made from a hash of both).
 */
export function importedChatId(userId: string, sourceId: string): string {
  const hex = createHash('sha256').update(`parley-import\0${userId}\0${sourceId}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Export (Parley JSON, lossless; Markdown) and import (Parley, Open WebUI, ChatGPT). Both need `chat.export`. */
export function createTransferService(deps: {
  repo: ChatsRepo;
  attachments: AttachmentsRepo;
  chats: ChatsService;
  permissions: PermissionsService;
  folderName: (userId: string, folderId: string | null) => Promise<string | null>;
  folderPath: (userId: string, folderId: string | null) => Promise<string[]>;
  /** The caller's folder at a path of names, created when missing. */
  ensureFolder: (userId: string, path: readonly string[]) => Promise<string | null>;
  clock: Clock;
}) {
  const { repo, attachments, chats, clock } = deps;

  async function allowed(caller: ChatCaller): Promise<void> {
    if (caller.role !== 'admin' && !(await deps.permissions.effective(caller)).chat.export) {
      throw forbidden('You are not allowed to export or import chats', 'CHAT_EXPORT_FORBIDDEN');
    }
  }

  async function exported(row: ChatRow, messages: Parameters<typeof presentChat>[1]): Promise<ExportedChat> {
    return {
      ...presentChat(row, messages),
      parley_export: 1,
      attachment_ids: await attachments.fileIdsOf(row.id),
      folder_name: await deps.folderName(row.user_id, row.folder_id),
      folder_path: await deps.folderPath(row.user_id, row.folder_id),
    };
  }

  /** The id of the caller's chat that `sourceId` names (the chat itself, or its earlier import), if any. */
  async function alreadyImported(caller: ChatCaller, sourceId: string): Promise<string | undefined> {
    for (const id of [sourceId, importedChatId(caller.id, sourceId)]) {
      const row = await repo.findById(id);
      if (row?.user_id === caller.id) return row.id;
    }
    return undefined;
  }

  return {
    /** Checks `chat.export` (routes call it before validating the body). */
    requireAllowed: allowed,

    /** One of the caller's chats, lossless. */
    async exportOne(caller: ChatCaller, chatId: string): Promise<ExportedChat> {
      const row = await chats.requireOwn(caller, chatId);
      await allowed(caller);
      return exported(row, await repo.messages(row.id));
    },

    /** Every chat of the caller (archived ones too), oldest first, lossless. */
    async exportAll(caller: ChatCaller): Promise<ExportedChat[]> {
      await allowed(caller);
      const rows = await repo.allOf(caller.id);
      const messages = await repo.messagesOf(rows.map((r) => r.id));
      const out: ExportedChat[] = [];
      for (const row of rows) out.push(await exported(row, messages.get(row.id) ?? []));
      return out;
    },

    /** Markdown of exported chats, separated by rules. */
    markdown(list: readonly ExportedChat[]): string {
      return list.map(chatToMarkdown).join('\n---\n\n');
    },

    /**
     * Imports chats in any known format as new chats of the caller; reports each one. A chat already
     * among the caller's chats (its own export, or imported before) is skipped as a duplicate. Tags
     * keep their case; one matching a tag the caller has (in any case) takes its spelling.
     */
    async import(caller: ChatCaller, entries: readonly unknown[]): Promise<ChatImportReport> {
      await allowed(caller);
      const results: ChatImportResult[] = [];
      const spellings = new TagSpellings(await repo.tagColumns(caller.id));
      let duplicates = 0;
      for (const [index, raw] of entries.entries()) {
        const entry = obj(raw);
        const base = { index, title: str(entry?.title) || str(obj(entry?.chat)?.title), id: null, messages: 0, skipped_messages: 0 };
        let format: ChatImportResult['format'] = 'unknown';
        let read: ImportedChat;
        try {
          if (!entry) throw new ImportSkip('not an object');
          if (isParleyExport(entry)) [format, read] = ['parley', readParley(entry)];
          else if (isChatGpt(entry)) [format, read] = ['chatgpt', readChatGpt(entry)];
          else if (isOpenWebUi(entry)) [format, read] = ['open-webui', readOpenWebUi(entry)];
          else throw new ImportSkip('not a Parley, Open WebUI or ChatGPT chat');
        } catch (error) {
          if (!(error instanceof ImportSkip)) throw error;
          results.push({ ...base, format, status: 'skipped', notes: [`Skipped: ${error.message}`] });
          continue;
        }
        const existing = read.source_id === null ? undefined : await alreadyImported(caller, read.source_id);
        if (existing !== undefined) {
          duplicates += 1;
          results.push({ ...base, title: read.title, format, status: 'skipped', id: existing, notes: ['Skipped: already in your chats'] });
          continue;
        }
        const built = buildRows(caller.id, { ...read, tags: spellings.spellAll(read.tags) }, clock.nowMs(), read.source_id === null ? undefined : importedChatId(caller.id, read.source_id));
        if (built.messages.length === 0) {
          results.push({ ...base, title: read.title, format, status: 'skipped', skipped_messages: read.skipped, notes: ['Skipped: no message could be read', ...read.notes] });
          continue;
        }
        if (read.folder_path.length > 0) built.chat.folder_id = await deps.ensureFolder(caller.id, read.folder_path);
        await repo.insertWithMessages(built.chat, built.messages);
        results.push({ ...base, title: built.chat.title, format, status: 'imported', id: built.chat.id, messages: built.messages.length, skipped_messages: read.skipped, notes: read.notes });
      }
      const imported = results.filter((r) => r.status === 'imported').length;
      return { imported, skipped: results.length - imported, duplicates, chats: results };
    },
  };
}
export type TransferService = ReturnType<typeof createTransferService>;
