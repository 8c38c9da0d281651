import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('auths', (t) => {
    t.string('user_id').primary().references('users.id').onDelete('CASCADE');
    /** bcrypt hash; null for accounts that only sign in through a trusted header. */
    t.string('password_hash').nullable();
    t.integer('updated_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('auths');
}
