import type { Knex } from 'knex';

/** Tables whose writes change who may see a channel: every instance re-checks its live subscriptions. */
const ACCESS_TABLES = ['channels', 'group_members'];

/**
 * Channels: rooms where people (and models they mention) talk. Messages are top-level or replies
 * in a thread (`parent_id`, one level); reactions are one row per person, message and name; read
 * positions one row per person and channel; files on a message are uploads made for it. Times are epoch milliseconds (the wire shows them in
 * nanoseconds, as Open WebUI does). Deleting a channel, a message or a person deletes what hangs
 * off it (replies, reactions, read positions): a deleted message leaves nothing behind to search
 * or export.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('channels', (t) => {
    t.string('id').primary();
    /** The creator (owner); null once their account is deleted (the channel stays with its members). */
    t.string('user_id').nullable().references('users.id').onDelete('SET NULL');
    t.string('name').notNullable();
    t.text('description').nullable();
    /** JSON: the channel's knowledge and tools for model answers (`knowledge_ids`, `tool_ids`). */
    t.text('data').nullable();
    /** JSON access control (null = every verified account reads, i.e. sees and posts). */
    t.text('access_control').nullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
  });
  await knex.schema.createTable('channel_messages', (t) => {
    t.string('id').primary();
    t.string('channel_id').notNullable().references('channels.id').onDelete('CASCADE');
    t.string('user_id').notNullable().references('users.id').onDelete('CASCADE');
    /** The thread's first message; null for a top-level message. */
    t.string('parent_id').nullable().references('channel_messages.id').onDelete('CASCADE');
    t.text('content').notNullable();
    /** JSON: files and images. */
    t.text('data').nullable();
    /** JSON: the answering model, its state, the mentions. */
    t.text('meta').nullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    // A channel's messages by time (search, threads and top level together).
    t.index(['channel_id', 'created_at'], 'channel_messages_channel_created');
    // The top level by time: its pages, and unread counts read from the index alone (whose
    // messages they are included), so a channel full of the reader's own messages stays cheap.
    t.index(['channel_id', 'parent_id', 'created_at', 'user_id'], 'channel_messages_top_level');
    // A thread's replies, newest first.
    t.index(['parent_id', 'created_at'], 'channel_messages_parent_created');
    t.index(['user_id'], 'channel_messages_user');
  });
  await knex.schema.createTable('channel_message_files', (t) => {
    t.string('message_id').notNullable().references('channel_messages.id').onDelete('CASCADE');
    /** An upload made for the channel (purpose `channel`); it belongs to one message. */
    t.string('file_id').notNullable().references('files.id').onDelete('CASCADE');
    t.primary(['message_id', 'file_id']);
    t.unique(['file_id']);
  });
  await knex.schema.createTable('channel_reactions', (t) => {
    t.string('message_id').notNullable().references('channel_messages.id').onDelete('CASCADE');
    t.string('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('name').notNullable();
    t.bigInteger('created_at').notNullable();
    t.primary(['message_id', 'user_id', 'name']);
    t.index(['user_id'], 'channel_reactions_user');
  });
  await knex.schema.createTable('channel_reads', (t) => {
    t.string('channel_id').notNullable().references('channels.id').onDelete('CASCADE');
    t.string('user_id').notNullable().references('users.id').onDelete('CASCADE');
    /** Epoch milliseconds of the newest message this person has seen. */
    t.bigInteger('last_read_at').notNullable();
    t.primary(['channel_id', 'user_id']);
    t.index(['user_id'], 'channel_reads_user');
  });
  // Dialect fork (PostgreSQL only): access changes are announced to every instance on the
  // database (parley_notify_table_change comes from migration 202611260601).
  if (knex.client.config.client === 'pg') {
    for (const table of ACCESS_TABLES) {
      await knex.raw(`CREATE TRIGGER ?? AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ?? FOR EACH STATEMENT EXECUTE FUNCTION parley_notify_table_change()`, [
        `${table}_notify_change`,
        table,
      ]);
    }
  }
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'pg') {
    for (const table of ACCESS_TABLES) await knex.raw('DROP TRIGGER IF EXISTS ?? ON ??', [`${table}_notify_change`, table]);
  }
  await knex.schema.dropTable('channel_reads');
  await knex.schema.dropTable('channel_reactions');
  await knex.schema.dropTable('channel_message_files');
  await knex.schema.dropTable('channel_messages');
  await knex.schema.dropTable('channels');
}
