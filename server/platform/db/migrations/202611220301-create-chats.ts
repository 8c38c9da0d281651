import type { Knex } from 'knex';

/** Chats and their message tree: every message points at its parent, so edits and regenerations keep branches. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('chats', (t) => {
    t.string('id').primary();
    t.string('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('title').notNullable();
    t.boolean('pinned').notNullable().defaultTo(false);
    t.boolean('archived').notNullable().defaultTo(false);
    /** Folder the chat is filed in (folders are a UI grouping; null when not filed). */
    t.string('folder_id').nullable();
    /** The leaf of the branch being shown; null for an empty chat. */
    t.string('current_message_id').nullable();
    /** Tags from the tags task, as a JSON array. */
    t.text('tags').notNullable().defaultTo('[]');
    t.integer('created_at').notNullable();
    t.integer('updated_at').notNullable();
    /** updated_at in milliseconds: orders the list when several changes fall in the same second. */
    t.bigInteger('activity_ms').notNullable();
    t.index(['user_id', 'archived', 'activity_ms']);
  });
  await knex.schema.createTable('chat_messages', (t) => {
    t.string('id').primary();
    t.string('chat_id').notNullable().references('chats.id').onDelete('CASCADE');
    /** The message this one answers or follows; null for the first message of a chat. */
    t.string('parent_id').nullable();
    t.string('role').notNullable();
    t.text('content').notNullable();
    /** The model that wrote an assistant message. */
    t.string('model').nullable();
    /** `complete`, or `interrupted` when the answer stopped early (client gone, provider error). */
    t.string('status').notNullable().defaultTo('complete');
    t.text('error').nullable();
    /** JSON: usage, sources, files, follow_ups. */
    t.text('usage').nullable();
    t.text('sources').nullable();
    t.text('files').nullable();
    t.text('follow_ups').nullable();
    t.integer('created_at').notNullable();
    t.integer('updated_at').notNullable();
    /** Insertion order inside the chat (timestamps tie within a second). */
    t.integer('seq').notNullable();
    t.index(['chat_id', 'seq']);
    t.index(['parent_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('chat_messages');
  await knex.schema.dropTable('chats');
}
