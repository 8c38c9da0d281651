import type { ChatTagCount } from '../contracts/chat-library';
import type { ChatListEntry } from '../contracts/chats';
import { readJson, writeJson } from '../platform/db/json';
import { badRequest } from '../platform/http/errors';
import { presentChatEntry } from './chats.present';
import type { ChatsRepo } from './chats.repo';
import type { ChatCaller, ChatsService } from './chats.service';

const MAX_TAGS = 50;

/** Tags, filing in folders and archive-all: the owner's organisation of their chats. */
export function createChatOrganizingService(deps: { repo: ChatsRepo; chats: ChatsService; requireFolder: (userId: string, folderId: string) => Promise<void> }) {
  const { repo, chats } = deps;

  async function setTags(caller: ChatCaller, chatId: string, change: (tags: string[]) => string[]): Promise<ChatListEntry> {
    const row = await chats.requireOwn(caller, chatId);
    const tags = change(readJson<string[]>(row.tags, []));
    if (tags.length > MAX_TAGS) throw badRequest(`A chat holds at most ${MAX_TAGS} tags`, 'TOO_MANY_TAGS');
    const next = { ...row, tags: writeJson(tags) };
    await repo.update(chatId, { tags: next.tags });
    return presentChatEntry(next);
  }

  return {
    /** Adds a tag (lower-cased; already there is fine). */
    async addTag(caller: ChatCaller, chatId: string, name: string): Promise<ChatListEntry> {
      const tag = name.toLowerCase();
      return setTags(caller, chatId, (tags) => (tags.includes(tag) ? tags : [...tags, tag]));
    },

    async removeTag(caller: ChatCaller, chatId: string, name: string): Promise<ChatListEntry> {
      const tag = name.toLowerCase();
      return setTags(caller, chatId, (tags) => tags.filter((t) => t !== tag));
    },

    /** Every tag on the caller's chats with how many chats carry it, most used first. */
    async allTags(caller: ChatCaller): Promise<ChatTagCount[]> {
      const counts = new Map<string, number>();
      for (const column of await repo.tagColumns(caller.id)) for (const t of new Set(readJson<string[]>(column, []))) counts.set(t, (counts.get(t) ?? 0) + 1);
      return [...counts].map(([name, count]) => ({ name, count })).sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
    },

    /** Files the chat in one of the caller's folders, or takes it out (null). */
    async moveToFolder(caller: ChatCaller, chatId: string, folderId: string | null): Promise<ChatListEntry> {
      const row = await chats.requireOwn(caller, chatId);
      if (folderId !== null) await deps.requireFolder(caller.id, folderId);
      await repo.update(chatId, { folder_id: folderId });
      return presentChatEntry({ ...row, folder_id: folderId });
    },

    /** Archives every chat of the caller; answers how many were archived. */
    async archiveAll(caller: ChatCaller): Promise<number> {
      return repo.archiveAll(caller.id);
    },
  };
}
export type ChatOrganizingService = ReturnType<typeof createChatOrganizingService>;
