import type { Db } from '../platform/db/knex';

/** A row of `prompts`: unique by (user_id, command). */
export interface PromptRow {
  command: string;
  user_id: string;
  title: string;
  content: string;
  access_control: string | null;
  timestamp: number;
}

/** knex access to `prompts`. */
export function createPromptsRepo(db: Db) {
  return {
    async all(): Promise<PromptRow[]> {
      return db<PromptRow>('prompts').orderBy('command', 'asc').orderBy('timestamp', 'asc').orderBy('user_id', 'asc');
    },
    /** Every owner's prompt with this command, oldest first. */
    async withCommand(command: string): Promise<PromptRow[]> {
      return db<PromptRow>('prompts').where({ command }).orderBy('timestamp', 'asc').orderBy('user_id', 'asc');
    },
    async findOwn(userId: string, command: string): Promise<PromptRow | undefined> {
      return db<PromptRow>('prompts').where({ user_id: userId, command }).first();
    },
    async insert(row: PromptRow): Promise<void> {
      await db('prompts').insert(row);
    },
    /** Replaces `owner`'s prompt `command` (the row may get a new command). */
    async replace(owner: string, command: string, row: PromptRow): Promise<void> {
      await db('prompts').where({ user_id: owner, command }).update(row);
    },
    async delete(owner: string, command: string): Promise<void> {
      await db('prompts').where({ user_id: owner, command }).delete();
    },
  };
}
export type PromptsRepo = ReturnType<typeof createPromptsRepo>;
