import type { Knex } from 'knex';

/**
 * Dialect fork (PostgreSQL only; on SQLite one instance holds every index and updates it itself):
 * writes that change what a collection's search index, a knowledge base's file list or its graph
 * signal shows are announced on `parley_table_changes`, so other instances drop their in-memory copy. Payload:
 * `<table>|<application_name of the writer>|<collection or knowledge id>`; the writer's name lets
 * an instance skip its own writes (it updated its memory already). Chunks are announced once per
 * statement and collection (transition tables: a batch of thousands of chunks is a few notices);
 * PostgreSQL delivers notices on commit and folds repeats within a transaction.
 */
const CHUNK_TRIGGERS = [
  ['INSERT', 'NEW TABLE AS changed_rows'],
  ['UPDATE', 'NEW TABLE AS changed_rows'],
  ['DELETE', 'OLD TABLE AS changed_rows'],
] as const;

const ROW_TABLES = ['collection_languages', 'collection_files', 'graph_state'];

export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'pg') return;
  await knex.raw(`CREATE OR REPLACE FUNCTION parley_notify_chunk_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('parley_table_changes', 'chunks|' || current_setting('application_name') || '|' || c.collection_id)
        FROM (SELECT DISTINCT collection_id FROM changed_rows) c;
      RETURN NULL;
    END $$`);
  for (const [event, transition] of CHUNK_TRIGGERS) {
    await knex.raw(`CREATE TRIGGER ?? AFTER ${event} ON chunks REFERENCING ${transition} FOR EACH STATEMENT EXECUTE FUNCTION parley_notify_chunk_change()`, [
      `chunks_notify_${event.toLowerCase()}`,
    ]);
  }
  // A language change re-analyses the whole index; an entry's row carries the state a file list
  // shows; a graph's state changes with every step of its build (the graph signal's cache follows it).
  await knex.raw(`CREATE OR REPLACE FUNCTION parley_notify_collection_row() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      r record;
    BEGIN
      IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
      IF TG_TABLE_NAME = 'collection_languages' THEN
        PERFORM pg_notify('parley_table_changes', 'chunks|' || current_setting('application_name') || '|' || r.collection_id);
      ELSIF TG_TABLE_NAME = 'graph_state' THEN
        PERFORM pg_notify('parley_table_changes', 'graph_state|' || current_setting('application_name') || '|' || r.knowledge_id);
      ELSIF r.knowledge_id IS NOT NULL THEN
        PERFORM pg_notify('parley_table_changes', 'collection_files|' || current_setting('application_name') || '|' || r.knowledge_id);
      END IF;
      RETURN NULL;
    END $$`);
  for (const table of ROW_TABLES) {
    await knex.raw(`CREATE TRIGGER ?? AFTER INSERT OR UPDATE OR DELETE ON ?? FOR EACH ROW EXECUTE FUNCTION parley_notify_collection_row()`, [`${table}_notify_row`, table]);
  }
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'pg') return;
  for (const [event] of CHUNK_TRIGGERS) await knex.raw('DROP TRIGGER IF EXISTS ?? ON chunks', [`chunks_notify_${event.toLowerCase()}`]);
  for (const table of ROW_TABLES) await knex.raw('DROP TRIGGER IF EXISTS ?? ON ??', [`${table}_notify_row`, table]);
  await knex.raw('DROP FUNCTION IF EXISTS parley_notify_chunk_change()');
  await knex.raw('DROP FUNCTION IF EXISTS parley_notify_collection_row()');
}
