import type { Knex } from 'knex';

/** Tool calls an answer made (name, arguments, result, duration, error), saved with the message as JSON. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('chat_messages', (t) => {
    t.text('tool_steps').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('chat_messages', (t) => {
    t.dropColumn('tool_steps');
  });
}
