import type { Knex } from 'knex';

/**
 * Tables whose rows are ordered by insertion (`rowid`) as a tie-break and as the chat search's
 * recency key. SQLite gives every table an implicit `rowid`; PostgreSQL has none.
 */
const ROW_ORDERED = ['chats', 'chat_messages', 'collection_files'] as const;

/**
 * Dialect fork (PostgreSQL only): an explicit `rowid bigserial` column, so queries that order by
 * `rowid` read the same on both engines. On SQLite this migration does nothing.
 */
export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'pg') return;
  for (const table of ROW_ORDERED) {
    await knex.raw('ALTER TABLE ?? ADD COLUMN rowid bigserial NOT NULL', [table]);
    await knex.raw('CREATE UNIQUE INDEX ?? ON ?? (rowid)', [`${table}_rowid`, table]);
  }
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'pg') return;
  for (const table of ROW_ORDERED) await knex.raw('ALTER TABLE ?? DROP COLUMN rowid', [table]);
}

export { ROW_ORDERED };
