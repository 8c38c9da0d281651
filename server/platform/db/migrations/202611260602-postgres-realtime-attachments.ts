import type { Knex } from 'knex';

/**
 * Dialect fork (PostgreSQL only; on SQLite there is one instance and socket.io stays in memory):
 * the table `@socket.io/postgres-adapter` parks event payloads in when they are too large for a
 * NOTIFY (8000 bytes) or binary, read by the other instances and deleted after 30 s. It lives in a
 * schema of its own, `parley_realtime`, so it is not one of Parley's data tables (migrate-db and
 * row counts look at the current schema only); UNLOGGED since its rows are transient.
 */
export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'pg') return;
  await knex.raw('CREATE SCHEMA IF NOT EXISTS parley_realtime');
  await knex.raw(
    'CREATE UNLOGGED TABLE IF NOT EXISTS parley_realtime.socket_io_attachments (id bigserial UNIQUE, created_at timestamptz DEFAULT now(), payload bytea)',
  );
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'pg') return;
  await knex.raw('DROP SCHEMA IF EXISTS parley_realtime CASCADE');
}
