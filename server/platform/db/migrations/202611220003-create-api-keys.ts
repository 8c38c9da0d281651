import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('api_keys', (t) => {
    t.string('user_id').primary().references('users.id').onDelete('CASCADE');
    /** SHA-256 of the key; the key itself is never stored here. */
    t.string('key_hash').notNullable().unique();
    t.integer('created_at').notNullable();
    t.integer('last_used_at').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('api_keys');
}
