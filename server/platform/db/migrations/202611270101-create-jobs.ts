import type { Knex } from 'knex';

/**
 * Background jobs shared by every instance on the database (ingestion, knowledge-graph builds,
 * re-embedding): one row per piece of work, claimed by one instance at a time under a lease.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('jobs', (t) => {
    t.increments('id').primary();
    /** What runs it: `ingest`, `graph`, `reembed`. */
    t.string('kind').notNullable();
    /** The work's identity within its kind (enqueueing the same key again adds no second job). */
    t.string('key').notNullable();
    /** JSON the runner needs beyond the key. */
    t.text('payload').notNullable().defaultTo('{}');
    /** queued → running → done | failed (a running job whose lease ran out is queued again for any instance). */
    t.string('status').notNullable();
    /** Higher first. */
    t.integer('priority').notNullable().defaultTo(0);
    /** The instance running it. */
    t.string('owner').nullable();
    /** Epoch milliseconds after which another instance may take it over. */
    t.bigInteger('lease_until').nullable();
    /** Times it was claimed (a taken-over job counts each run). */
    t.integer('runs').notNullable().defaultTo(0);
    /** 1 when it was enqueued again while running: it runs once more after this run. */
    t.integer('again').notNullable().defaultTo(0);
    t.text('error').nullable();
    t.integer('created_at').notNullable();
    t.integer('updated_at').notNullable();
    t.unique(['kind', 'key']);
    t.index(['status', 'kind', 'priority', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('jobs');
}
