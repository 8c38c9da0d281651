import type { Db } from '../../platform/db/knex';

/** A row of `chat_shares`. */
export interface ShareRow {
  id: string;
  chat_id: string;
  user_id: string;
  snapshot: string;
  created_at: number;
  updated_at: number;
}

/** knex access to `chat_shares`, keeping `chats.share_id` in step. */
export function createSharesRepo(db: Db) {
  return {
    async findById(id: string): Promise<ShareRow | undefined> {
      return db<ShareRow>('chat_shares').where({ id }).first();
    },
    async findByChat(chatId: string): Promise<ShareRow | undefined> {
      return db<ShareRow>('chat_shares').where({ chat_id: chatId }).first();
    },
    /** Creates or replaces the chat's snapshot, keeping the share id once given. */
    async upsert(row: ShareRow): Promise<void> {
      await db.transaction(async (trx) => {
        await trx('chat_shares').insert(row).onConflict('chat_id').merge(['snapshot', 'updated_at']);
        await trx('chats').where({ id: row.chat_id }).update({ share_id: row.id });
      });
    },
    /** Removes the chat's share; true when there was one. */
    async deleteByChat(chatId: string): Promise<boolean> {
      return db.transaction(async (trx) => {
        const n = await trx('chat_shares').where({ chat_id: chatId }).delete();
        await trx('chats').where({ id: chatId }).update({ share_id: null });
        return n > 0;
      });
    },
  };
}
export type SharesRepo = ReturnType<typeof createSharesRepo>;
