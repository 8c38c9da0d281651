import type { Knex } from 'knex';

/** The tables whose writes are announced: those the in-memory caches hold (users, auth, models, config). */
const TABLES = ['users', 'api_keys', 'revoked_tokens', 'models', 'config'];

/**
 * Dialect fork (PostgreSQL only; SQLite's update hook already reports every write on its one
 * connection): after any insert, update or delete on a cached table, `pg_notify` on the
 * `parley_table_changes` channel with the table's name, so every instance on this database (each
 * LISTENing, see server/platform/db/table-changes-postgres.ts) drops what it cached. One notice per
 * statement; PostgreSQL delivers it on commit and folds repeats within a transaction.
 */
export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'pg') return;
  await knex.raw(`CREATE OR REPLACE FUNCTION parley_notify_table_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('parley_table_changes', TG_TABLE_NAME);
      RETURN NULL;
    END $$`);
  for (const table of TABLES) {
    await knex.raw(
      `CREATE TRIGGER ?? AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ?? FOR EACH STATEMENT EXECUTE FUNCTION parley_notify_table_change()`,
      [`${table}_notify_change`, table],
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'pg') return;
  for (const table of TABLES) await knex.raw('DROP TRIGGER IF EXISTS ?? ON ??', [`${table}_notify_change`, table]);
  await knex.raw('DROP FUNCTION IF EXISTS parley_notify_table_change()');
}
