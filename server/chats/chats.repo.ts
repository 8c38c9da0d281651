import type { Knex } from 'knex';
import type { Db } from '../platform/db/knex';

/** A row of `chats`. */
export interface ChatRow {
  id: string;
  user_id: string;
  title: string;
  pinned: number | boolean;
  archived: number | boolean;
  folder_id: string | null;
  current_message_id: string | null;
  tags: string;
  /** The live share's id (`chat_shares.id`); null when not shared. */
  share_id: string | null;
  created_at: number;
  updated_at: number;
  activity_ms: number;
}

/** A row of `chat_messages`. JSON columns are text. */
export interface MessageRow {
  id: string;
  chat_id: string;
  parent_id: string | null;
  role: string;
  content: string;
  model: string | null;
  status: string;
  error: string | null;
  usage: string | null;
  sources: string | null;
  files: string | null;
  follow_ups: string | null;
  /** JSON: the answer's tool calls; absent on rows read before the column existed. */
  tool_steps?: string | null;
  created_at: number;
  updated_at: number;
  seq: number;
}

/** A message to insert; `seq` is assigned by the repo. */
export type NewMessageRow = Omit<MessageRow, 'seq'>;

/** Which chats a list shows. */
export interface ChatListFilter {
  archived: boolean;
  /** `exclude` pinned chats, show `only` pinned ones, or `any`. */
  pinned: 'exclude' | 'only' | 'any';
  includeFolders: boolean;
  offset: number;
  limit: number;
}

/** Columns of a chat list entry. */
export const LIST_COLUMNS = ['id', 'user_id', 'title', 'pinned', 'archived', 'folder_id', 'current_message_id', 'tags', 'share_id', 'created_at', 'updated_at', 'activity_ms'];

/** knex access to `chats` and `chat_messages`. */
export function createChatsRepo(db: Db) {
  /**
   * Inserts messages of one chat in one statement, each after the chat's last: row i gets the
   * chat's highest `seq` + i + 1. Whether the database reads that highest `seq` once for the
   * statement or again before each row, the rows come after every earlier message and in order
   * (`seq` orders, it need not be gapless).
   */
  async function insertMessages(trx: Knex.Transaction, chatId: string, rows: readonly NewMessageRow[]): Promise<void> {
    if (rows.length === 0) return;
    await trx('chat_messages').insert(
      rows.map((row, i) => ({ ...row, seq: trx.raw('(SELECT COALESCE(MAX(seq), 0) + ? FROM chat_messages WHERE chat_id = ?)', [i + 1, chatId]) })),
    );
  }

  return {
    async insert(row: ChatRow): Promise<void> {
      await db('chats').insert(row);
    },
    async findById(id: string): Promise<ChatRow | undefined> {
      return db<ChatRow>('chats').where({ id }).first();
    },
    /** A chat and the ids of the files attached to it (oldest first), in one query. */
    async findWithAttachmentIds(id: string): Promise<{ chat: ChatRow; fileIds: string[] } | undefined> {
      const rows = await db('chats')
        .leftJoin('chat_attachments', 'chat_attachments.chat_id', 'chats.id')
        .where('chats.id', id)
        .orderBy('chat_attachments.added_at', 'asc')
        .select<Array<ChatRow & { attached_file_id: string | null }>>('chats.*', 'chat_attachments.file_id as attached_file_id');
      const first = rows[0];
      if (!first) return undefined;
      const { attached_file_id: _attached, ...chat } = first;
      return { chat, fileIds: rows.flatMap((row) => (row.attached_file_id ? [row.attached_file_id] : [])) };
    },
    /** A user's chats, newest activity first. */
    async list(userId: string, filter: ChatListFilter): Promise<ChatRow[]> {
      const q = db<ChatRow>('chats').where({ user_id: userId, archived: filter.archived });
      if (filter.pinned === 'exclude') q.andWhere({ pinned: false });
      if (filter.pinned === 'only') q.andWhere({ pinned: true });
      if (!filter.includeFolders) q.whereNull('folder_id');
      return q.select<ChatRow[]>(LIST_COLUMNS).orderBy([{ column: 'activity_ms', order: 'desc' }, { column: 'rowid', order: 'desc' }]).offset(filter.offset).limit(filter.limit);
    },
    async update(id: string, patch: Partial<ChatRow>): Promise<void> {
      await db('chats').where({ id }).update(patch);
    },
    /** Updates the chat only while its title is `title`. */
    async updateWhereTitle(id: string, title: string, patch: Partial<ChatRow>): Promise<boolean> {
      return (await db('chats').where({ id, title }).update(patch)) > 0;
    },
    async delete(id: string): Promise<boolean> {
      return (await db('chats').where({ id }).delete()) > 0;
    },
    /** Every message of a chat in insertion order. */
    async messages(chatId: string): Promise<MessageRow[]> {
      return db<MessageRow>('chat_messages').where({ chat_id: chatId }).orderBy('seq', 'asc');
    },
    async findMessage(chatId: string, id: string): Promise<MessageRow | undefined> {
      return db<MessageRow>('chat_messages').where({ chat_id: chatId, id }).first();
    },
    /** Inserts messages (in order) and moves the chat's current leaf to `currentId`, in one transaction. */
    async appendMessages(chatId: string, rows: readonly NewMessageRow[], currentId: string, nowMs: number): Promise<void> {
      await db.transaction(async (trx) => {
        await insertMessages(trx, chatId, rows);
        await trx('chats').where({ id: chatId }).update({ current_message_id: currentId, updated_at: Math.floor(nowMs / 1000), activity_ms: nowMs });
      });
    },
    async updateMessage(id: string, patch: Partial<MessageRow>): Promise<void> {
      await db('chat_messages').where({ id }).update(patch);
    },
    /**
     * Updates a message and marks its chat active: two statements queued together, without a
     * transaction (its BEGIN and COMMIT would double the round trips on the one connection that
     * every streaming answer shares). The chat's activity time is a sort key, not part of the
     * message: a stop between the two leaves a consistent chat.
     */
    async finishMessage(chatId: string, id: string, patch: Partial<MessageRow>, nowMs: number): Promise<void> {
      await Promise.all([
        db('chat_messages').where({ id }).update(patch),
        db('chats').where({ id: chatId }).update({ updated_at: Math.floor(nowMs / 1000), activity_ms: nowMs }),
      ]);
    },
    /** Sets every message in `from` status to `patch` (answers cut by a stop of the service); returns how many. */
    async updateMessagesInStatus(from: string, patch: Partial<MessageRow>): Promise<number> {
      return db('chat_messages').where({ status: from }).update(patch);
    },
    /** Archives every chat of a user that is not archived yet; returns how many. */
    async archiveAll(userId: string): Promise<number> {
      return db('chats').where({ user_id: userId, archived: false }).update({ archived: true });
    },
    /** Inserts a chat with its messages (already in tree order) in one transaction. */
    async insertWithMessages(row: ChatRow, messages: readonly NewMessageRow[]): Promise<void> {
      await db.transaction(async (trx) => {
        await trx('chats').insert(row);
        const rows = messages.map((m, i) => ({ ...m, seq: i + 1 }));
        if (rows.length > 0) await trx.batchInsert('chat_messages', rows, 200);
      });
    },
    /** Every chat of a user (any state), oldest first. */
    async allOf(userId: string): Promise<ChatRow[]> {
      return db<ChatRow>('chats').where({ user_id: userId }).orderBy([{ column: 'created_at', order: 'asc' }, { column: 'rowid', order: 'asc' }]);
    },
    /** Messages of several chats, grouped by chat id, each in insertion order. */
    async messagesOf(chatIds: readonly string[]): Promise<Map<string, MessageRow[]>> {
      const out = new Map<string, MessageRow[]>();
      for (let i = 0; i < chatIds.length; i += 500) {
        const rows = await db<MessageRow>('chat_messages').whereIn('chat_id', chatIds.slice(i, i + 500)).orderBy([{ column: 'chat_id' }, { column: 'seq', order: 'asc' }]);
        for (const r of rows) {
          const list = out.get(r.chat_id);
          if (list) list.push(r);
          else out.set(r.chat_id, [r]);
        }
      }
      return out;
    },
    /** Takes every chat of a user out of these folders. */
    async unfile(userId: string, folderIds: readonly string[]): Promise<void> {
      if (folderIds.length === 0) return;
      await db('chats').where({ user_id: userId }).whereIn('folder_id', [...folderIds]).update({ folder_id: null });
    },
    /** The `tags` column of every chat of a user. */
    async tagColumns(userId: string): Promise<string[]> {
      const rows = await db('chats').where({ user_id: userId }).whereNot({ tags: '[]' }).select<{ tags: string }[]>('tags');
      return rows.map((r) => r.tags);
    },
    /** How many assistant messages a chat holds. */
    async countAssistantMessages(chatId: string): Promise<number> {
      const row = await db('chat_messages').where({ chat_id: chatId, role: 'assistant' }).count<{ n: number }[]>({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },
  };
}
export type ChatsRepo = ReturnType<typeof createChatsRepo>;
