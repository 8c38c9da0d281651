import type { Role } from '../contracts/auth';
import type { Db } from '../platform/db/knex';

/** A row of `channels` (times in epoch milliseconds). */
export interface ChannelRow {
  id: string;
  user_id: string | null;
  name: string;
  description: string | null;
  data: string | null;
  access_control: string | null;
  created_at: number;
  updated_at: number;
}

/** What the sidebar adds to a channel for one person: their read position, the newest message, what is unread. */
export interface ChannelActivity {
  last_read_at: number | null;
  last_message_at: number | null;
  unread_count: number;
}

/** Unread counts stop here (the sidebar shows "999+"): counting stays cheap in a channel never read. */
export const UNREAD_CAP = 1000;

/** knex access to `channels` and `channel_reads`. */
export function createChannelsRepo(db: Db) {
  return {
    async all(): Promise<ChannelRow[]> {
      return db<ChannelRow>('channels').orderBy('name', 'asc').orderBy('id', 'asc');
    },
    async find(id: string): Promise<ChannelRow | undefined> {
      return db<ChannelRow>('channels').where({ id }).first();
    },
    async insert(row: ChannelRow): Promise<void> {
      await db('channels').insert(row);
    },
    async update(id: string, patch: Partial<ChannelRow>): Promise<void> {
      await db('channels').where({ id }).update(patch);
    },
    async delete(id: string): Promise<void> {
      await db('channels').where({ id }).delete();
    },

    /**
     * Read position, newest top-level message and unread count of each channel for one person.
     * The newest message and the count read the top-level index (channel, parent, time, author) alone.
     */
    async activity(userId: string, channelIds: readonly string[]): Promise<Map<string, ChannelActivity>> {
      const out = new Map<string, ChannelActivity>();
      if (channelIds.length === 0) return out;
      const reads = await db('channel_reads').where({ user_id: userId }).whereIn('channel_id', channelIds).select<Array<{ channel_id: string; last_read_at: number }>>('channel_id', 'last_read_at');
      const readAt = new Map(reads.map((r) => [r.channel_id, Number(r.last_read_at)]));
      await Promise.all(
        channelIds.map(async (channelId) => {
          const last = await db('channel_messages').where({ channel_id: channelId }).whereNull('parent_id').orderBy('created_at', 'desc').first<{ created_at: number } | undefined>('created_at');
          const since = readAt.get(channelId);
          let unread = 0;
          if (last && (since === undefined || Number(last.created_at) > since)) {
            const unreadRows = db('channel_messages')
              .where({ channel_id: channelId })
              .whereNull('parent_id')
              .where('created_at', '>', since ?? 0)
              .whereNot('user_id', userId)
              .limit(UNREAD_CAP)
              .select(db.raw('1 as one'))
              .as('unread');
            const counted = await db.from(unreadRows).count<Array<{ n: number | string }>>({ n: '*' });
            unread = Number(counted[0]?.n ?? 0);
          }
          out.set(channelId, { last_read_at: since ?? null, last_message_at: last ? Number(last.created_at) : null, unread_count: unread });
        }),
      );
      return out;
    },

    /** Every verified account with its groups: who a channel's members are (mentions). */
    async accounts(): Promise<Array<{ id: string; name: string; role: Role; groupIds: string[] }>> {
      const [users, members] = await Promise.all([
        db('users').whereNot('role', 'pending').select<Array<{ id: string; name: string; role: Role }>>('id', 'name', 'role'),
        db('group_members').select<Array<{ group_id: string; user_id: string }>>('group_id', 'user_id'),
      ]);
      const groups = new Map<string, string[]>();
      for (const m of members) groups.set(m.user_id, [...(groups.get(m.user_id) ?? []), m.group_id]);
      return users.map((u) => ({ ...u, groupIds: groups.get(u.id) ?? [] }));
    },

    /** Moves a person's read position forward (never back). */
    async markRead(channelId: string, userId: string, at: number): Promise<number> {
      await db('channel_reads').insert({ channel_id: channelId, user_id: userId, last_read_at: at }).onConflict(['channel_id', 'user_id']).merge({ last_read_at: db.raw('CASE WHEN channel_reads.last_read_at > excluded.last_read_at THEN channel_reads.last_read_at ELSE excluded.last_read_at END') });
      const row = await db('channel_reads').where({ channel_id: channelId, user_id: userId }).first<{ last_read_at: number }>('last_read_at');
      return Number(row?.last_read_at ?? at);
    },
  };
}
export type ChannelsRepo = ReturnType<typeof createChannelsRepo>;
