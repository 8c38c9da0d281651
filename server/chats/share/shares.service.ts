import type { SharedChat } from '../../contracts/chat-library';
import type { Chat } from '../../contracts/chats';
import type { Clock } from '../../platform/clock';
import { forbidden, notFound } from '../../platform/http/errors';
import { readJson, writeJson } from '../../platform/db/json';
import { newId } from '../../platform/ids';
import type { PermissionsService } from '../../permissions';
import type { ChatCaller, ChatsService } from '../chats.service';
import type { SharesRepo } from './shares.repo';

const shareNotFound = () => notFound('Shared chat not found', 'SHARED_CHAT_NOT_FOUND');

/**
 * Read-only share links: sharing stores a snapshot of the chat as it is now; sharing again updates
 * the snapshot under the same id; revoking deletes it. Any signed-in (non-pending) user may open one.
 */
export function createSharesService(deps: { repo: SharesRepo; chats: ChatsService; permissions: PermissionsService; clock: Clock }) {
  const { repo, chats, clock } = deps;

  return {
    /** Shares the caller's chat (or refreshes its snapshot); needs `chat.share`. Answers the chat with its `share_id`. */
    async share(caller: ChatCaller, chatId: string): Promise<Chat> {
      await chats.requireOwn(caller, chatId);
      if (caller.role !== 'admin' && !(await deps.permissions.effective(caller)).chat.share) {
        throw forbidden('You are not allowed to share chats', 'CHAT_SHARE_FORBIDDEN');
      }
      const existing = await repo.findByChat(chatId);
      const id = existing?.id ?? newId();
      const now = clock.now();
      const chat = { ...(await chats.get(caller, chatId)), share_id: id };
      await repo.upsert({ id, chat_id: chatId, user_id: caller.id, snapshot: writeJson(chat), created_at: existing?.created_at ?? now, updated_at: now });
      return chat;
    },

    /** Revokes the link; the owner may always do this, even without `chat.share`. */
    async revoke(caller: ChatCaller, chatId: string): Promise<void> {
      await chats.requireOwn(caller, chatId);
      if (!(await repo.deleteByChat(chatId))) throw shareNotFound();
    },

    /** The snapshot behind a link. */
    async open(shareId: string): Promise<SharedChat> {
      const row = await repo.findById(shareId);
      if (!row) throw shareNotFound();
      const chat = readJson<Chat | null>(row.snapshot, null);
      if (!chat) throw shareNotFound();
      return { ...chat, id: row.id, user_id: `shared-${row.chat_id}`, share_id: row.id, chat_id: row.chat_id, shared_at: row.updated_at };
    },

    /** The owner of a chat that is shared right now, for `GET /users/shared-{chat_id}`. */
    async ownerOfShared(chatId: string): Promise<string | undefined> {
      return (await repo.findByChat(chatId))?.user_id;
    },
  };
}
export type SharesService = ReturnType<typeof createSharesService>;
