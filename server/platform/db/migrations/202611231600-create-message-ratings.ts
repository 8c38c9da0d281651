import type { Knex } from 'knex';

/** A user's 👍/👎 on an answer, with an optional reason (ENABLE_MESSAGE_RATING). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('message_ratings', (t) => {
    t.string('message_id').notNullable().references('chat_messages.id').onDelete('CASCADE');
    t.string('chat_id').notNullable().references('chats.id').onDelete('CASCADE');
    t.string('user_id').notNullable();
    /** 1 (good) or -1 (bad). */
    t.integer('rating').notNullable();
    t.text('reason').nullable();
    t.integer('created_at').notNullable();
    t.integer('updated_at').notNullable();
    t.primary(['message_id', 'user_id']);
    t.index(['chat_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('message_ratings');
}
