import type { Db } from '../../platform/db/knex';

/** A chat as the word index keeps it: id, rowid, last activity (ms) and title. */
export type IndexedChatRow = [id: string, rowid: number, activityMs: number, title: string];
/** A message as the word index reads it: its chat, rowid and text. */
export type IndexedMessageRow = [chatId: string, rowid: number, content: string];

/**
 * knex access for the in-memory chat word index (SQLite without FTS5). Lists come back as one
 * JSON row each: much cheaper than thousands of driver rows.
 */
export function createChatWordIndexRepo(db: Db) {
  return {
    /** A one-row summary of a user's chats (count, newest rowid, sums of activity, title lengths and first letters) that moves whenever any of them changes. */
    async summary(userId: string): Promise<Record<string, number | null> | undefined> {
      const [sum] = (await db.raw('SELECT count(*) AS n, max(rowid) AS r, total(activity_ms) AS a, total(length(title)) AS l, total(unicode(title) * (rowid % 997)) AS t FROM chats WHERE user_id = ?', [userId])) as Array<Record<string, number | null>>;
      return sum;
    },
    /** Every chat of a user. */
    async chatsOf(userId: string): Promise<IndexedChatRow[]> {
      const [row] = (await db.raw('SELECT json_group_array(json_array(id, rowid, activity_ms, title)) AS chats FROM chats WHERE user_id = ?', [userId])) as Array<{ chats: string }>;
      return JSON.parse(row?.chats ?? '[]') as IndexedChatRow[];
    },
    /** Every message of these chats. */
    async messagesOf(chatIds: readonly string[]): Promise<IndexedMessageRow[]> {
      const [found] = (await db('chat_messages').whereIn('chat_id', chatIds).select(db.raw('json_group_array(json_array(chat_id, rowid, content)) AS rows'))) as Array<{ rows: string }>;
      return JSON.parse(found?.rows ?? '[]') as IndexedMessageRow[];
    },
  };
}
export type ChatWordIndexRepo = ReturnType<typeof createChatWordIndexRepo>;
