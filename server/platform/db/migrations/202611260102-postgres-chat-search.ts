import type { Knex } from 'knex';

/**
 * Dialect fork (PostgreSQL only; SQLite has the FTS5 tables of 202611231700): chat search through
 * PostgreSQL's own full-text search. `parley_search_text` folds case and (when the `unaccent`
 * extension can be created) accents, like FTS5's `unicode61 remove_diacritics`; GIN indexes over
 * the 'simple' configuration (no stemming, no stop words) serve word and word-prefix queries.
 */
export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'pg') return;
  const available = await knex.raw("SELECT 1 FROM pg_available_extensions WHERE name = 'unaccent'");
  let unaccent = (available as { rowCount: number }).rowCount > 0;
  if (unaccent) {
    // A savepoint: without the right to create it, search still works, accents then count.
    try {
      await knex.transaction((trx) => trx.raw('CREATE EXTENSION IF NOT EXISTS unaccent'));
    } catch {
      unaccent = false;
    }
  }
  // unaccent() is only STABLE (it reads a dictionary); naming the dictionary makes the wrapper
  // safe to declare IMMUTABLE, so it can back an index.
  const body = unaccent ? "lower(unaccent('unaccent'::regdictionary, coalesce($1, '')))" : "lower(coalesce($1, ''))";
  await knex.raw(`CREATE OR REPLACE FUNCTION parley_search_text(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT ${body} $$`);
  await knex.raw("CREATE INDEX chat_messages_search ON chat_messages USING gin (to_tsvector('simple', parley_search_text(content)))");
  await knex.raw("CREATE INDEX chats_search ON chats USING gin (to_tsvector('simple', parley_search_text(title)))");
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'pg') return;
  await knex.raw('DROP INDEX IF EXISTS chat_messages_search');
  await knex.raw('DROP INDEX IF EXISTS chats_search');
  await knex.raw('DROP FUNCTION IF EXISTS parley_search_text(text)');
}
