import type { Db } from '../platform/db/knex';

/** A stored rating. */
export interface RatingRow {
  message_id: string;
  chat_id: string;
  user_id: string;
  rating: number;
  reason: string | null;
  created_at: number;
  updated_at: number;
}

/** knex access to `message_ratings` (and the answer it rates). */
export function createRatingsRepo(db: Db) {
  return {
    /** The role of a message of this chat, if it is there. */
    async messageRole(chatId: string, messageId: string): Promise<string | undefined> {
      const row = await db('chat_messages').where({ id: messageId, chat_id: chatId }).first<{ role: string } | undefined>('role');
      return row?.role;
    },
    async put(row: RatingRow): Promise<void> {
      await db('message_ratings')
        .insert(row)
        .onConflict(['message_id', 'user_id'])
        .merge({ rating: row.rating, reason: row.reason, updated_at: row.updated_at });
    },
    async remove(messageId: string, userId: string): Promise<void> {
      await db('message_ratings').where({ message_id: messageId, user_id: userId }).delete();
    },
    async ofChat(chatId: string, userId: string): Promise<RatingRow[]> {
      return db('message_ratings').where({ chat_id: chatId, user_id: userId }).select<RatingRow[]>('*');
    },
  };
}
export type RatingsRepo = ReturnType<typeof createRatingsRepo>;
