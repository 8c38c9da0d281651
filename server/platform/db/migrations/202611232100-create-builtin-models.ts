import type { Knex } from 'knex';

/** The built-in model library: GGUF files under the data dir, their header facts and download state. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('builtin_models', (t) => {
    t.string('id').primary();
    t.string('name').notNullable();
    t.string('file_name').notNullable();
    /** `ready`, `downloading`, `paused`, `failed`. */
    t.string('status').notNullable();
    t.string('kind').notNullable().defaultTo('chat');
    t.bigInteger('size').notNullable().defaultTo(0);
    t.bigInteger('downloaded').notNullable().defaultTo(0);
    t.string('architecture');
    t.integer('context_length');
    t.string('quantization');
    t.bigInteger('ram_estimate');
    t.text('source_url');
    t.string('sha256');
    t.text('error');
    t.string('created_by');
    t.integer('created_at').notNullable();
    t.integer('updated_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('builtin_models');
}
