import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('tools', (t) => {
    t.string('id').primary();
    /** The admin who created it; their tools go with them. */
    t.string('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('name').notNullable();
    /** `python`, `openapi` or `api`. MCP tools come from the tool-server list, not this table. */
    t.string('type').notNullable();
    t.text('description').notNullable().defaultTo('');
    /** JSON object without secrets: API keys live in the secret store (`tool:<id>:api_key`). */
    t.text('config').notNullable().defaultTo('{}');
    /** JSON array of the function specs read from the source or spec at the last save. */
    t.text('specs').notNullable().defaultTo('[]');
    /** JSON; SQL NULL means public read. */
    t.text('access_control').nullable();
    t.integer('created_at').notNullable();
    t.integer('updated_at').notNullable();
    t.index(['user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('tools');
}
