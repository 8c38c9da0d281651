import type { Db } from '../platform/db/knex';

interface ConfigRow {
  key: string;
  value: string;
  updated_at: number;
}

/** Key/value JSON rows of the admin settings. */
export function createConfigRepo(db: Db) {
  return {
    async all(): Promise<Map<string, string>> {
      const rows = await db<ConfigRow>('config').select('key', 'value');
      return new Map(rows.map((r) => [r.key, r.value]));
    },
    async put(key: string, value: string, now: number): Promise<void> {
      await db<ConfigRow>('config').insert({ key, value, updated_at: now }).onConflict('key').merge(['value', 'updated_at']);
    },
  };
}
export type ConfigRepo = ReturnType<typeof createConfigRepo>;
