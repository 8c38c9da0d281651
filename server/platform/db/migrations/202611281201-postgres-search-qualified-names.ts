import type { Knex } from 'knex';

/**
 * Dialect fork (PostgreSQL only): `parley_search_text` names the `unaccent` function and
 * dictionary with their schema. `pg_restore` rebuilds indexes with an empty `search_path`, so the
 * unqualified names of 202611260102 were not found there ("text search dictionary "unaccent" does
 * not exist") and a `pg_dump`/`pg_restore` round trip lost both chat-search indexes. The function
 * keeps folding accents exactly when it did before (its results, and so the indexes, are
 * unchanged), and indexes a broken restore lost are created again.
 */
export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'pg') return;
  const rows = async <T>(sql: string) => ((await knex.raw(sql)) as { rows: T[] }).rows;
  const [current] = await rows<{ source: string }>("SELECT prosrc AS source FROM pg_proc WHERE proname = 'parley_search_text' AND pronamespace = current_schema()::regnamespace");
  const [extension] = await rows<{ schema: string }>("SELECT quote_ident(n.nspname) AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'unaccent'");
  const folds = extension !== undefined && (current === undefined || current.source.includes('unaccent'));
  const body = folds
    ? `lower(${extension.schema}.unaccent('${extension.schema.replaceAll("'", "''")}.unaccent'::regdictionary, coalesce($1, '')))`
    : "lower(coalesce($1, ''))";
  await knex.raw(`CREATE OR REPLACE FUNCTION parley_search_text(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT ${body} $$`);
  await knex.raw("CREATE INDEX IF NOT EXISTS chat_messages_search ON chat_messages USING gin (to_tsvector('simple', parley_search_text(content)))");
  await knex.raw("CREATE INDEX IF NOT EXISTS chats_search ON chats USING gin (to_tsvector('simple', parley_search_text(title)))");
}

/** The unqualified form stays correct for the running service; only restores need the schema. */
export async function down(): Promise<void> {}
