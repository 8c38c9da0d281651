import type { Knex } from 'knex';

/**
 * Notes (Open WebUI's `note` table): Markdown written in Parley, shared like workspace objects.
 * `data` and `meta` are JSON text (`data.content.md` is the text); `access_control` JSON or null
 * (public); `version` counts saves, so a save made from an older version is refused (409) instead
 * of overwriting another person's words; `language` is the analysis language of its search terms.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('notes', (t) => {
    t.string('id').primary();
    t.string('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('title').notNullable();
    t.text('data').nullable();
    t.text('meta').nullable();
    t.text('access_control').nullable();
    t.integer('version').notNullable().defaultTo(1);
    t.string('language').notNullable().defaultTo('english');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.index(['user_id', 'updated_at']);
    t.index(['updated_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('notes');
}
