import type { Knex } from 'knex';

/**
 * `/command` prompts are unique per owner, not across the workspace: one person's private
 * `/summary` no longer blocks everyone else's (nor tells them it exists). The table is rebuilt
 * with the key (user_id, command) and an index on command (resolving `/command` reads every
 * owner's); rows are copied as they are.
 */
export async function up(knex: Knex): Promise<void> {
  await rebuild(knex, (t) => t.primary(['user_id', 'command']));
}

export async function down(knex: Knex): Promise<void> {
  // Back to one prompt per command: the oldest of each command stays.
  await knex('prompts')
    .whereNotIn(
      ['user_id', 'command'],
      knex('prompts as p').whereRaw('p.timestamp = (select min(q.timestamp) from prompts as q where q.command = p.command)').select('p.user_id', 'p.command'),
    )
    .delete();
  await rebuild(knex, (t) => t.primary(['command']));
}

/** Copies `prompts` into a table with the given key (SQLite cannot change a primary key in place). */
async function rebuild(knex: Knex, key: (t: Knex.CreateTableBuilder) => void): Promise<void> {
  await knex.schema.createTable('prompts_next', (t) => {
    /** `/name`: what the composer's `/` picker matches. */
    t.string('command').notNullable();
    t.string('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('title').notNullable();
    t.text('content').notNullable();
    /** JSON AccessControl; null = everyone may read. */
    t.text('access_control').nullable();
    t.integer('timestamp').notNullable();
    key(t);
  });
  await knex.raw('INSERT INTO prompts_next (command, user_id, title, content, access_control, timestamp) SELECT command, user_id, title, content, access_control, timestamp FROM prompts');
  await knex.schema.dropTable('prompts');
  await knex.schema.renameTable('prompts_next', 'prompts');
  await knex.schema.alterTable('prompts', (t) => t.index(['command'], 'prompts_command_index'));
}
