import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('revoked_tokens', (t) => {
    /** The `jti` of a signed-out session token. */
    t.string('token_id').primary();
    /** When the token would have expired anyway; rows past it are pruned. */
    t.integer('expires_at').nullable();
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('revoked_tokens');
}
