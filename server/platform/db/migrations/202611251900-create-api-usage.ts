import type { Knex } from 'knex';

/** Requests and tokens through the OpenAI-compatible /v1 API, per user, model and UTC day. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('api_usage', (t) => {
    t.string('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('model').notNullable();
    /** `YYYY-MM-DD`, UTC. */
    t.string('day').notNullable();
    t.integer('requests').notNullable().defaultTo(0);
    t.integer('prompt_tokens').notNullable().defaultTo(0);
    t.integer('completion_tokens').notNullable().defaultTo(0);
    t.integer('total_tokens').notNullable().defaultTo(0);
    t.primary(['user_id', 'model', 'day']);
    t.index(['day']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('api_usage');
}
