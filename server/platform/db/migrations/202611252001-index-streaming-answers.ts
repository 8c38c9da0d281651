import type { Knex } from 'knex';

/** Finds answers left `streaming` by a stopped service at start without scanning every message. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE INDEX chat_messages_streaming ON chat_messages (status) WHERE status = 'streaming'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX chat_messages_streaming');
}
