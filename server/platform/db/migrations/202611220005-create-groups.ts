import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('groups', (t) => {
    t.string('id').primary();
    t.string('name').notNullable();
    t.text('description').notNullable().defaultTo('');
    /** Partial Permissions object granted to members, as JSON. */
    t.text('permissions').notNullable().defaultTo('{}');
    t.string('created_by').nullable().references('users.id').onDelete('SET NULL');
    t.integer('created_at').notNullable();
    t.integer('updated_at').notNullable();
  });
  await knex.schema.createTable('group_members', (t) => {
    t.string('group_id').notNullable().references('groups.id').onDelete('CASCADE');
    t.string('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('added_at').notNullable();
    t.primary(['group_id', 'user_id']);
    t.index(['user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('group_members');
  await knex.schema.dropTable('groups');
}
