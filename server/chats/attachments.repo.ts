import type { Db } from '../platform/db/knex';

/** knex access to `chat_attachments`: which files are attached to which chats. */
export function createAttachmentsRepo(db: Db) {
  return {
    /** File ids attached to a chat, oldest first. */
    async fileIdsOf(chatId: string): Promise<string[]> {
      const rows = await db('chat_attachments').where({ chat_id: chatId }).orderBy('added_at', 'asc').select<{ file_id: string }[]>('file_id');
      return rows.map((r) => r.file_id);
    },
    /** Makes the chat's attachments exactly `fileIds`, keeping the time of those already attached. */
    async replace(chatId: string, fileIds: readonly string[], now: number): Promise<void> {
      await db.transaction(async (trx) => {
        await trx('chat_attachments').where({ chat_id: chatId }).whereNotIn('file_id', [...fileIds]).delete();
        if (fileIds.length > 0) {
          const rows = fileIds.map((file_id) => ({ chat_id: chatId, file_id, added_at: now }));
          await trx('chat_attachments').insert(rows).onConflict(['chat_id', 'file_id']).ignore();
        }
      });
    },
    /** Attaches files to a chat (already attached ones are left alone). */
    async add(chatId: string, fileIds: readonly string[], now: number): Promise<void> {
      if (fileIds.length === 0) return;
      const rows = fileIds.map((file_id) => ({ chat_id: chatId, file_id, added_at: now }));
      await db('chat_attachments').insert(rows).onConflict(['chat_id', 'file_id']).ignore();
    },
    /** Which of these files are attached to a chat other than `exceptChatId`. */
    async attachedElsewhere(fileIds: readonly string[], exceptChatId: string): Promise<Set<string>> {
      if (fileIds.length === 0) return new Set();
      const rows = await db('chat_attachments').whereIn('file_id', [...fileIds]).whereNot({ chat_id: exceptChatId }).distinct<{ file_id: string }[]>('file_id');
      return new Set(rows.map((r) => r.file_id));
    },
  };
}
export type AttachmentsRepo = ReturnType<typeof createAttachmentsRepo>;
