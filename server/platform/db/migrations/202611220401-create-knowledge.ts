import type { Knex } from 'knex';

/**
 * Knowledge bases, the files of every searchable collection (a knowledge base, or `file-<id>`
 * for a chat attachment) with their ingestion state, and the chunks with their embeddings
 * (float32 BLOBs). Chunks are the source of truth; the search indexes under `indexes/` are caches.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('knowledge', (t) => {
    t.string('id').primary();
    t.string('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('name').notNullable();
    t.text('description').notNullable().defaultTo('');
    /** JSON; NULL = everyone may read. */
    t.text('access_control').nullable();
    t.text('meta').notNullable().defaultTo('{}');
    t.integer('created_at').notNullable();
    t.integer('updated_at').notNullable();
    t.index(['user_id']);
  });
  await knex.schema.createTable('collection_files', (t) => {
    t.string('collection_id').notNullable();
    t.string('file_id').notNullable().references('files.id').onDelete('CASCADE');
    /** Set for knowledge bases, so deleting the base removes its rows (and, through them, the chunks). */
    t.string('knowledge_id').nullable().references('knowledge.id').onDelete('CASCADE');
    /** pending → processing → completed | failed */
    t.string('status').notNullable();
    t.text('error').nullable();
    t.integer('created_at').notNullable();
    t.integer('updated_at').notNullable();
    t.primary(['collection_id', 'file_id']);
    t.index(['file_id']);
    t.index(['status']);
  });
  await knex.schema.createTable('chunks', (t) => {
    t.increments('id').primary();
    t.string('collection_id').notNullable();
    t.string('file_id').notNullable();
    t.integer('seq').notNullable();
    /** The text that is searched. */
    t.text('text').notNullable();
    /** What is returned in its place when set: the parent chunk (strategy E). */
    t.text('context').nullable();
    /** JSON: heading trail, page, parent number. */
    t.text('meta').notNullable().defaultTo('{}');
    /** Unit-length float32 vector, little-endian. */
    t.binary('embedding').nullable();
    /** Which embedder made `embedding`. */
    t.string('model').notNullable();
    t.foreign(['collection_id', 'file_id']).references(['collection_id', 'file_id']).inTable('collection_files').onDelete('CASCADE');
    t.index(['collection_id', 'file_id']);
    t.index(['model']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('chunks');
  await knex.schema.dropTable('collection_files');
  await knex.schema.dropTable('knowledge');
}
