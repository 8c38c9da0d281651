import type { Knex } from 'knex';

/** The analysis language of each collection (knowledge base or chat file): detected at ingestion, changeable by a base's owner. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('collection_languages', (t) => {
    t.string('collection_id').primary();
    t.string('language').notNullable();
    t.integer('updated_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('collection_languages');
}
