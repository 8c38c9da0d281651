import type { Knex } from 'knex';

/** The graph's size, kept with its state: status requests (polled, or streamed) then read one row. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('graph_state', (t) => {
    t.integer('entities').notNullable().defaultTo(0);
    t.integer('relations').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('graph_state', (t) => {
    t.dropColumn('entities');
    t.dropColumn('relations');
  });
}
