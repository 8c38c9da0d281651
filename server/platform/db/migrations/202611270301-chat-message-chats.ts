import type { Knex } from 'knex';

/**
 * SQLite chat search: a narrow table from each message's rowid to its chat's rowid, kept by
 * triggers, so a word found in many messages maps each match to its chat with one small-row lookup
 * instead of reading the message row and then the chat by its text id (deep search pages read tens
 * of thousands of matches). PostgreSQL searches with its own full-text indexes and needs nothing.
 */
export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'sqlite3') return;
  const statements = [
    `CREATE TABLE chat_message_chats (message_rowid INTEGER PRIMARY KEY, chat_rowid INTEGER NOT NULL)`,
    `CREATE TRIGGER chat_message_chats_ai AFTER INSERT ON chat_messages BEGIN
       INSERT OR REPLACE INTO chat_message_chats(message_rowid, chat_rowid) SELECT new.rowid, rowid FROM chats WHERE id = new.chat_id; END`,
    `CREATE TRIGGER chat_message_chats_ad AFTER DELETE ON chat_messages BEGIN
       DELETE FROM chat_message_chats WHERE message_rowid = old.rowid; END`,
    `CREATE TRIGGER chat_message_chats_au AFTER UPDATE OF chat_id ON chat_messages BEGIN
       DELETE FROM chat_message_chats WHERE message_rowid = old.rowid;
       INSERT OR REPLACE INTO chat_message_chats(message_rowid, chat_rowid) SELECT new.rowid, rowid FROM chats WHERE id = new.chat_id; END`,
    // Existing messages.
    `INSERT INTO chat_message_chats(message_rowid, chat_rowid) SELECT m.rowid, c.rowid FROM chat_messages m JOIN chats c ON c.id = m.chat_id`,
  ];
  for (const sql of statements) await knex.raw(sql);
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'sqlite3') return;
  for (const name of ['chat_message_chats_ai', 'chat_message_chats_ad', 'chat_message_chats_au']) await knex.raw(`DROP TRIGGER IF EXISTS ${name}`);
  await knex.raw('DROP TABLE IF EXISTS chat_message_chats');
}
