import type { Knex } from 'knex';

/**
 * The knowledge graph of a knowledge base: its build state, entities, which chunks mention
 * them, typed relations (each backed by the chunk it was read from) and which chunks were
 * already processed. Everything cascades from the base and from the chunks, so removing a file
 * (its chunks) takes its mentions and relations with it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('graph_state', (t) => {
    t.string('knowledge_id').primary().references('knowledge.id').onDelete('CASCADE');
    /** building | ready | failed */
    t.string('status').notNullable();
    /** 0–100, monotonic during a build. */
    t.float('progress').notNullable().defaultTo(0);
    t.text('error').nullable();
    /** Who turned it on (the task model runs for them). */
    t.string('user_id').nullable().references('users.id').onDelete('SET NULL');
    /** When the graph first became ready: from then on retrieval uses it, also while new files are folded in. */
    t.integer('ready_at').nullable();
    t.integer('created_at').notNullable();
    t.integer('updated_at').notNullable();
  });
  await knex.schema.createTable('graph_entities', (t) => {
    t.increments('id').primary();
    t.string('knowledge_id').notNullable().references('knowledge.id').onDelete('CASCADE');
    /** Normalised name: lower case, no honorifics or punctuation; unique per base. */
    t.string('key').notNullable();
    /** Display name (the first form seen). */
    t.string('name').notNullable();
    t.string('type').notNullable();
    t.unique(['knowledge_id', 'key']);
  });
  await knex.schema.createTable('graph_mentions', (t) => {
    t.integer('entity_id').notNullable().references('graph_entities.id').onDelete('CASCADE');
    t.integer('chunk_id').notNullable().references('chunks.id').onDelete('CASCADE');
    t.integer('count').notNullable().defaultTo(1);
    t.primary(['entity_id', 'chunk_id']);
    t.index(['chunk_id']);
  });
  await knex.schema.createTable('graph_relations', (t) => {
    t.integer('source_id').notNullable().references('graph_entities.id').onDelete('CASCADE');
    t.integer('target_id').notNullable().references('graph_entities.id').onDelete('CASCADE');
    /** co_occurs (offline extractor) or a model-given verb phrase such as works_for. */
    t.string('type').notNullable();
    t.integer('chunk_id').notNullable().references('chunks.id').onDelete('CASCADE');
    t.primary(['source_id', 'target_id', 'type', 'chunk_id']);
    t.index(['target_id']);
    t.index(['chunk_id']);
  });
  await knex.schema.createTable('graph_chunks', (t) => {
    t.integer('chunk_id').primary().references('chunks.id').onDelete('CASCADE');
    t.string('knowledge_id').notNullable().references('knowledge.id').onDelete('CASCADE');
    t.index(['knowledge_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('graph_chunks');
  await knex.schema.dropTable('graph_relations');
  await knex.schema.dropTable('graph_mentions');
  await knex.schema.dropTable('graph_entities');
  await knex.schema.dropTable('graph_state');
}
