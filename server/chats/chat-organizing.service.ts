import type { ChatTagCount } from '../contracts/chat-library';
import type { ChatListEntry } from '../contracts/chats';
import { readJson, writeJson } from '../platform/db/json';
import { badRequest } from '../platform/http/errors';
import { presentChatEntry } from './chats.present';
import type { ChatsRepo } from './chats.repo';
import type { ChatCaller, ChatsService } from './chats.service';
import { tagKey, TagSpellings, uniqueTags } from './tag-names';

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
    /**
     * Adds a tag in the case written, or in the spelling the caller already uses for it (tags match
     * whatever their case, and a stored tag's name never changes); already there is fine.
     */
    async addTag(caller: ChatCaller, chatId: string, name: string): Promise<ChatListEntry> {
      const tag = new TagSpellings(await repo.tagColumns(caller.id)).spell(name);
      return setTags(caller, chatId, (tags) => (tags.some((t) => tagKey(t) === tagKey(tag)) ? tags : [...tags, tag]));
    },

    /** Removes a tag, whatever the case it is named in. */
    async removeTag(caller: ChatCaller, chatId: string, name: string): Promise<ChatListEntry> {
      return setTags(caller, chatId, (tags) => tags.filter((t) => tagKey(t) !== tagKey(name)));
    },

    /** Every tag on the caller's chats (case-insensitively one, in its first spelling) with how many chats carry it, most used first. */
    async allTags(caller: ChatCaller): Promise<ChatTagCount[]> {
      const counts = new Map<string, { name: string; count: number }>();
      for (const column of await repo.tagColumns(caller.id)) {
        for (const name of uniqueTags(readJson<string[]>(column, []))) {
          const entry = counts.get(tagKey(name));
          if (entry) entry.count += 1;
          else counts.set(tagKey(name), { name, count: 1 });
        }
      }
      return [...counts.values()].sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
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
