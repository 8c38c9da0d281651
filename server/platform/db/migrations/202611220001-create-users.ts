import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    t.string('id').primary();
    t.string('name').notNullable();
    /** Stored lower-cased; compared case-insensitively. */
    t.string('email').notNullable().unique();
    t.string('role').notNullable();
    t.boolean('is_primary_admin').notNullable().defaultTo(false);
    t.text('profile_image_url').notNullable();
    t.text('info').notNullable().defaultTo('{}');
    t.text('settings').notNullable().defaultTo('{}');
    t.integer('created_at').notNullable();
    t.integer('updated_at').notNullable();
    t.integer('last_active_at').notNullable();
    t.index(['role']);
    t.index(['created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('users');
}
