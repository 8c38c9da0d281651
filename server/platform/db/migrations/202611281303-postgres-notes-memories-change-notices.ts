import type { Knex } from 'knex';

/**
 * Dialect fork (PostgreSQL only; on SQLite the one instance updates its search indexes itself):
 * writes to `notes` and `memories` are announced on `parley_table_changes` as
 * `<table>|<application_name of the writer>|<id>` (the note's id; the memory owner's user id), so
 * other instances drop that note from their notes search index or that person's memory index.
 */
export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'pg') return;
  await knex.raw(`CREATE OR REPLACE FUNCTION parley_notify_note_memory_row() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      r record;
    BEGIN
      IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
      IF TG_TABLE_NAME = 'notes' THEN
        PERFORM pg_notify('parley_table_changes', 'notes|' || current_setting('application_name') || '|' || r.id);
      ELSE
        PERFORM pg_notify('parley_table_changes', 'memories|' || current_setting('application_name') || '|' || r.user_id);
      END IF;
      RETURN NULL;
    END $$`);
  for (const table of ['notes', 'memories']) {
    await knex.raw(`CREATE TRIGGER ?? AFTER INSERT OR UPDATE OR DELETE ON ?? FOR EACH ROW EXECUTE FUNCTION parley_notify_note_memory_row()`, [`${table}_notify_row`, table]);
  }
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'pg') return;
  for (const table of ['notes', 'memories']) await knex.raw('DROP TRIGGER IF EXISTS ?? ON ??', [`${table}_notify_row`, table]);
  await knex.raw('DROP FUNCTION IF EXISTS parley_notify_note_memory_row()');
}
