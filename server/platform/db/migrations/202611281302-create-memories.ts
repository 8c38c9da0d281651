import type { Knex } from 'knex';

/**
 * Memories (Open WebUI's `memory` table): short facts a person keeps about themselves, private to
 * them. The embedding (float32 BLOB, unit length) and the model that made it are written with the
 * memory, so recall needs no embedding call per memory; a memory without one (the embedder was
 * unreachable) is embedded again when its owner's index is built.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('memories', (t) => {
    t.string('id').primary();
    t.string('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('content').notNullable();
    t.binary('embedding').nullable();
    t.string('model').nullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.index(['user_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('memories');
}
