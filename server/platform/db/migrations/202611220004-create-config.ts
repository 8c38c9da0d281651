import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('config', (t) => {
    /** Section name, for example `auth` or `permissions.default`. */
    t.string('key').primary();
    t.text('value').notNullable();
    t.integer('updated_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('config');
}
