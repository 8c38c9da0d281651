import type { Knex } from 'knex';

/**
 * Organizing chats: folders (nested), share snapshots, the prompts library, and full-text search
 * over chat titles and message text (SQLite FTS5 tables kept in step by triggers).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('folders', (t) => {
    t.string('id').primary();
    t.string('user_id').notNullable().references('users.id').onDelete('CASCADE');
    /** The folder this one sits in; null at the top level. */
    t.string('parent_id').nullable().references('folders.id').onDelete('CASCADE');
    t.string('name').notNullable();
    t.boolean('is_expanded').notNullable().defaultTo(false);
    t.integer('created_at').notNullable();
    t.integer('updated_at').notNullable();
    t.index(['user_id']);
  });

  await knex.schema.createTable('chat_shares', (t) => {
    /** The id in the `/s/{share_id}` link. */
    t.string('id').primary();
    t.string('chat_id').notNullable().unique().references('chats.id').onDelete('CASCADE');
    t.string('user_id').notNullable().references('users.id').onDelete('CASCADE');
    /** The chat as it was when shared (or last updated), JSON of the single-chat shape. */
    t.text('snapshot').notNullable();
    t.integer('created_at').notNullable();
    t.integer('updated_at').notNullable();
  });
  await knex.schema.alterTable('chats', (t) => {
    /** The chat's live share (`chat_shares.id`); null when not shared. */
    t.string('share_id').nullable();
  });

  await knex.schema.createTable('prompts', (t) => {
    /** `/name`: what the composer's `/` picker matches. */
    t.string('command').primary();
    t.string('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('title').notNullable();
    t.text('content').notNullable();
    /** JSON AccessControl; null = everyone may read. */
    t.text('access_control').nullable();
    t.integer('timestamp').notNullable();
  });

  if (knex.client.config.client === 'sqlite3') {
    const statements = [
      `CREATE VIRTUAL TABLE chat_messages_fts USING fts5(content, content='chat_messages', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2')`,
      `CREATE TRIGGER chat_messages_fts_ai AFTER INSERT ON chat_messages BEGIN
         INSERT INTO chat_messages_fts(rowid, content) VALUES (new.rowid, new.content); END`,
      `CREATE TRIGGER chat_messages_fts_ad AFTER DELETE ON chat_messages BEGIN
         INSERT INTO chat_messages_fts(chat_messages_fts, rowid, content) VALUES ('delete', old.rowid, old.content); END`,
      `CREATE TRIGGER chat_messages_fts_au AFTER UPDATE OF content ON chat_messages BEGIN
         INSERT INTO chat_messages_fts(chat_messages_fts, rowid, content) VALUES ('delete', old.rowid, old.content);
         INSERT INTO chat_messages_fts(rowid, content) VALUES (new.rowid, new.content); END`,
      `CREATE VIRTUAL TABLE chats_fts USING fts5(title, content='chats', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2')`,
      `CREATE TRIGGER chats_fts_ai AFTER INSERT ON chats BEGIN
         INSERT INTO chats_fts(rowid, title) VALUES (new.rowid, new.title); END`,
      `CREATE TRIGGER chats_fts_ad AFTER DELETE ON chats BEGIN
         INSERT INTO chats_fts(chats_fts, rowid, title) VALUES ('delete', old.rowid, old.title); END`,
      `CREATE TRIGGER chats_fts_au AFTER UPDATE OF title ON chats BEGIN
         INSERT INTO chats_fts(chats_fts, rowid, title) VALUES ('delete', old.rowid, old.title);
         INSERT INTO chats_fts(rowid, title) VALUES (new.rowid, new.title); END`,
      `INSERT INTO chat_messages_fts(chat_messages_fts) VALUES ('rebuild')`,
      `INSERT INTO chats_fts(chats_fts) VALUES ('rebuild')`,
    ];
    for (const sql of statements) await knex.raw(sql);
  }
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'sqlite3') {
    for (const name of ['chat_messages_fts_ai', 'chat_messages_fts_ad', 'chat_messages_fts_au', 'chats_fts_ai', 'chats_fts_ad', 'chats_fts_au']) await knex.raw(`DROP TRIGGER IF EXISTS ${name}`);
    await knex.raw('DROP TABLE IF EXISTS chat_messages_fts');
    await knex.raw('DROP TABLE IF EXISTS chats_fts');
  }
  await knex.schema.dropTable('prompts');
  await knex.schema.alterTable('chats', (t) => t.dropColumn('share_id'));
  await knex.schema.dropTable('chat_shares');
  await knex.schema.dropTable('folders');
}
