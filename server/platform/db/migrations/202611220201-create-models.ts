import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('models', (t) => {
    /** The model id as users see it; may contain `/`. */
    t.string('id').primary();
    /** Owner; their models go with them. */
    t.string('user_id').notNullable().references('users.id').onDelete('CASCADE');
    /** The base (provider) model it is built on; null when the entry describes a base model itself. */
    t.string('base_model_id').nullable();
    t.string('name').notNullable();
    /** JSON objects. */
    t.text('params').notNullable().defaultTo('{}');
    t.text('meta').notNullable().defaultTo('{}');
    /** JSON; SQL NULL means public read, `{}` or lists mean private except those listed. */
    t.text('access_control').nullable();
    t.boolean('is_active').notNullable().defaultTo(true);
    t.integer('created_at').notNullable();
    t.integer('updated_at').notNullable();
    t.index(['user_id']);
    t.index(['base_model_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('models');
}
