import type { Knex } from 'knex';

interface Row {
  schema: string | null;
  body: string | null;
}

/**
 * Dialect fork (PostgreSQL only): `parley_search_text` (202611260102) called `unaccent` without
 * its schema. pg_dump output runs with an empty search_path, so restoring a dump failed to build
 * the two chat search indexes ("text search dictionary unaccent does not exist"), and Parley's own
 * pre-update snapshots could not be restored cleanly. The function now names the extension's schema
 * (same result, so existing index entries stay valid), and the indexes are created when a restore
 * of an older dump left them out.
 */
export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'pg') return;
  const { rows } = (await knex.raw(
    `SELECT (SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'unaccent') AS schema,
            (SELECT p.prosrc FROM pg_proc p WHERE p.proname = 'parley_search_text' AND p.pronamespace = current_schema()::regnamespace) AS body`,
  )) as { rows: Row[] };
  const { schema, body } = rows[0] ?? { schema: null, body: null };
  // Keep what the function folds: accents only if it already did (a change would invalidate the indexes).
  if (schema && body?.includes('unaccent')) {
    const ident = `"${schema.replace(/"/g, '""')}"`;
    const dictionary = `${ident}.unaccent`.replace(/'/g, "''");
    await knex.raw(`CREATE OR REPLACE FUNCTION parley_search_text(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT lower(${ident}.unaccent('${dictionary}'::regdictionary, coalesce($1, ''))) $$`);
  }
  await knex.raw("CREATE INDEX IF NOT EXISTS chat_messages_search ON chat_messages USING gin (to_tsvector('simple', parley_search_text(content)))");
  await knex.raw("CREATE INDEX IF NOT EXISTS chats_search ON chats USING gin (to_tsvector('simple', parley_search_text(title)))");
}

export async function down(): Promise<void> {
  // The qualified function computes the same; nothing to undo.
}
