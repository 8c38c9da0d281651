import type { Knex } from 'knex';

/** Stored files (chat attachments, later knowledge documents) and which chats they are attached to. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('files', (t) => {
    t.string('id').primary();
    t.string('user_id').notNullable().references('users.id').onDelete('CASCADE');
    /** The name it was uploaded with (metadata only; on disk the file is named by id). */
    t.string('filename').notNullable();
    t.string('mime_type').notNullable();
    t.integer('size').notNullable();
    /** SHA-256 of the content, hex. */
    t.string('hash').notNullable();
    /** What it was uploaded for: `chat` (an attachment) or `knowledge`. */
    t.string('purpose').notNullable().defaultTo('chat');
    t.text('meta').notNullable().defaultTo('{}');
    t.integer('created_at').notNullable();
    t.integer('updated_at').notNullable();
    t.index(['user_id', 'created_at']);
  });
  await knex.schema.createTable('chat_attachments', (t) => {
    t.string('chat_id').notNullable().references('chats.id').onDelete('CASCADE');
    t.string('file_id').notNullable().references('files.id').onDelete('CASCADE');
    t.integer('added_at').notNullable();
    t.primary(['chat_id', 'file_id']);
    t.index(['file_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('chat_attachments');
  await knex.schema.dropTable('files');
}
