import type { Db } from '../platform/db/knex';

/** A row of `channel_messages` (times in epoch milliseconds; JSON columns as text). */
export interface MessageRow {
  id: string;
  channel_id: string;
  user_id: string;
  parent_id: string | null;
  content: string;
  data: string | null;
  meta: string | null;
  created_at: number;
  updated_at: number;
}

/** Who wrote a message. */
export interface AuthorRow {
  id: string;
  name: string;
  profile_image_url: string;
}

/** One person's reaction. */
export interface ReactionRow {
  message_id: string;
  user_id: string;
  name: string;
  user_name: string;
}

/** A file on a message, with what readers are shown. */
export interface MessageFileRow {
  message_id: string;
  file_id: string;
  filename: string;
  size: number;
  mime_type: string;
}

/** Replies of a thread: how many, and the newest one's time. */
export interface ReplyStats {
  count: number;
  latest: number | null;
}

const num = (v: unknown) => Number(v);

function rows(list: MessageRow[]): MessageRow[] {
  // bigint columns read as numbers on both engines (see platform/db/knex), kept explicit here.
  for (const r of list) {
    r.created_at = num(r.created_at);
    r.updated_at = num(r.updated_at);
  }
  return list;
}

/** `%word%` for LIKE, with the wildcard characters of the word escaped. */
function likePattern(word: string): string {
  return `%${word.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/** knex access to `channel_messages`, `channel_reactions` and `channel_message_files`. */
export function createMessagesRepo(db: Db) {
  return {
    /** Stores a message and links its files (uploads made for it) in one transaction. */
    async insert(row: MessageRow, fileIds: readonly string[] = []): Promise<void> {
      // One statement (no transaction) for the common message without files: the hot path of posting.
      if (fileIds.length === 0) {
        await db('channel_messages').insert(row);
        return;
      }
      await db.transaction(async (trx) => {
        await trx('channel_messages').insert(row);
        if (fileIds.length > 0) await trx('channel_message_files').insert(fileIds.map((file_id) => ({ message_id: row.id, file_id })));
      });
    },

    async find(id: string): Promise<MessageRow | undefined> {
      const row = await db<MessageRow>('channel_messages').where({ id }).first();
      return row ? rows([row])[0] : undefined;
    },

    /** A channel's top-level messages, newest first. */
    async page(channelId: string, skip: number, limit: number): Promise<MessageRow[]> {
      return rows(await db<MessageRow>('channel_messages').where({ channel_id: channelId }).whereNull('parent_id').orderBy('created_at', 'desc').orderBy('id', 'desc').offset(skip).limit(limit));
    },

    /** A thread's replies, newest first. */
    async thread(parentId: string, skip: number, limit: number): Promise<MessageRow[]> {
      return rows(await db<MessageRow>('channel_messages').where({ parent_id: parentId }).orderBy('created_at', 'desc').orderBy('id', 'desc').offset(skip).limit(limit));
    },

    /** The newest `limit` messages of a channel's top level or of one thread, oldest first (a model's context). */
    async recent(channelId: string, parentId: string | null, limit: number): Promise<MessageRow[]> {
      const q = db<MessageRow>('channel_messages').where({ channel_id: channelId });
      if (parentId) q.where((w) => w.where({ parent_id: parentId }).orWhere({ id: parentId }));
      else q.whereNull('parent_id');
      return rows(await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit)).reverse();
    },

    async replyStats(ids: readonly string[]): Promise<Map<string, ReplyStats>> {
      const out = new Map<string, ReplyStats>();
      if (ids.length === 0) return out;
      const found = await db('channel_messages')
        .whereIn('parent_id', ids)
        .groupBy('parent_id')
        .select<Array<{ parent_id: string; n: number | string; latest: number | string }>>('parent_id', db.raw('count(*) as n'), db.raw('max(created_at) as latest'));
      for (const f of found) out.set(f.parent_id, { count: num(f.n), latest: num(f.latest) });
      return out;
    },

    async reactions(ids: readonly string[]): Promise<ReactionRow[]> {
      if (ids.length === 0) return [];
      return db({ r: 'channel_reactions' })
        .join({ u: 'users' }, 'u.id', 'r.user_id')
        .whereIn('r.message_id', ids)
        .orderBy('r.created_at', 'asc')
        .select<ReactionRow[]>('r.message_id', 'r.user_id', 'r.name', 'u.name as user_name');
    },

    async authors(userIds: readonly string[]): Promise<AuthorRow[]> {
      if (userIds.length === 0) return [];
      return db('users').whereIn('id', [...new Set(userIds)]).select<AuthorRow[]>('id', 'name', 'profile_image_url');
    },

    async files(messageIds: readonly string[]): Promise<MessageFileRow[]> {
      if (messageIds.length === 0) return [];
      return db({ l: 'channel_message_files' })
        .join({ f: 'files' }, 'f.id', 'l.file_id')
        .whereIn('l.message_id', messageIds)
        .orderBy('f.created_at', 'asc')
        .select<MessageFileRow[]>('l.message_id', 'l.file_id', 'f.filename', 'f.size', 'f.mime_type');
    },

    /** Which of these files are already on a message. */
    async linkedFiles(fileIds: readonly string[]): Promise<Set<string>> {
      if (fileIds.length === 0) return new Set();
      const found = await db('channel_message_files').whereIn('file_id', fileIds).select<Array<{ file_id: string }>>('file_id');
      return new Set(found.map((f) => f.file_id));
    },

    /** Files on a message and on the replies of its thread (what goes when it is deleted). */
    async fileIdsUnder(messageId: string): Promise<string[]> {
      const found = await db('channel_message_files')
        .whereIn('message_id', db('channel_messages').where({ parent_id: messageId }).select('id'))
        .orWhere({ message_id: messageId })
        .select<Array<{ file_id: string }>>('file_id');
      return found.map((f) => f.file_id);
    },

    /** Files on every message of a channel. */
    async fileIdsOfChannel(channelId: string): Promise<string[]> {
      const found = await db('channel_message_files')
        .whereIn('message_id', db('channel_messages').where({ channel_id: channelId }).select('id'))
        .select<Array<{ file_id: string }>>('file_id');
      return found.map((f) => f.file_id);
    },

    async update(id: string, patch: Partial<Pick<MessageRow, 'content' | 'data' | 'meta' | 'updated_at'>>): Promise<void> {
      await db('channel_messages').where({ id }).update(patch);
    },

    /** Deletes a message; its replies, reactions and file links go with it (foreign keys). */
    async delete(id: string): Promise<void> {
      await db('channel_messages').where({ id }).delete();
    },

    /** Adds a reaction; false when the person had already given it. */
    async addReaction(messageId: string, userId: string, name: string, at: number): Promise<boolean> {
      const inserted = await db('channel_reactions').insert({ message_id: messageId, user_id: userId, name, created_at: at }).onConflict(['message_id', 'user_id', 'name']).ignore().returning('name');
      return Array.isArray(inserted) ? inserted.length > 0 : Boolean(inserted);
    },

    async removeReaction(messageId: string, userId: string, name: string): Promise<boolean> {
      return (await db('channel_reactions').where({ message_id: messageId, user_id: userId, name }).delete()) > 0;
    },

    /** The different reaction names a message has. */
    async reactionNames(messageId: string): Promise<string[]> {
      const found = await db('channel_reactions').where({ message_id: messageId }).distinct<Array<{ name: string }>>('name');
      return found.map((f) => f.name);
    },

    /** Messages of these channels holding every word (case-insensitive), newest first. */
    async search(channelIds: readonly string[], words: readonly string[], skip: number, limit: number): Promise<MessageRow[]> {
      if (channelIds.length === 0 || words.length === 0) return [];
      const q = db<MessageRow>('channel_messages').whereIn('channel_id', channelIds);
      for (const word of words) q.whereRaw("lower(content) LIKE ? ESCAPE '\\'", [likePattern(word)]);
      return rows(await q.orderBy('created_at', 'desc').orderBy('id', 'desc').offset(skip).limit(limit));
    },
  };
}
export type MessagesRepo = ReturnType<typeof createMessagesRepo>;
