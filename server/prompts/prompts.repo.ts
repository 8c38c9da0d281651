import type { Db } from '../platform/db/knex';

/** A row of `prompts`. */
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
      return db<PromptRow>('prompts').orderBy('command', 'asc');
    },
    async find(command: string): Promise<PromptRow | undefined> {
      return db<PromptRow>('prompts').where({ command }).first();
    },
    async insert(row: PromptRow): Promise<void> {
      await db('prompts').insert(row);
    },
    /** Replaces the prompt `command` (the row may get a new command). */
    async replace(command: string, row: PromptRow): Promise<void> {
      await db('prompts').where({ command }).update(row);
    },
    async delete(command: string): Promise<void> {
      await db('prompts').where({ command }).delete();
    },
  };
}
export type PromptsRepo = ReturnType<typeof createPromptsRepo>;
