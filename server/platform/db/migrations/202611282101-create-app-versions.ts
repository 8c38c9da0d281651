import type { Knex } from 'knex';

/**
 * Which Parley versions opened this database: a row each time a version (or a schema) other than
 * the last one's starts on it. A data dir later opened by an older Parley names the newer one that
 * wrote it (server/upgrades).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('app_versions', (t) => {
    t.increments('id').primary();
    /** The app's version (package.json), e.g. `0.2.0`. */
    t.string('version').notNullable();
    /** The newest migration that version knew, e.g. `202611282101-create-app-versions`. */
    t.string('schema').notNullable();
    /** Epoch seconds of its first start on this database. */
    t.integer('opened_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('app_versions');
}
