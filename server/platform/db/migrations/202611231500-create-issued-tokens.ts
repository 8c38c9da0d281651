import type { Knex } from 'knex';

/** Session tokens issued per user, so a password change can revoke every other session by id. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('issued_tokens', (t) => {
    t.string('token_id').primary();
    t.string('user_id').notNullable().references('users.id').onDelete('CASCADE');
    /** Epoch seconds; null for a token that never expires. */
    t.integer('expires_at').nullable();
    t.integer('issued_at').notNullable();
    t.index(['user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('issued_tokens');
}
