import type { Db } from '../platform/db/knex';
import { tableFeed } from '../platform/db/table-cache';

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
    /**
     * Subscribes to every write to the settings (also another instance's, on PostgreSQL);
     * `isActive()` false means changes may go unseen, so nothing read should be kept.
     */
    watch: tableFeed(db, 'config'),
  };
}
export type ConfigRepo = ReturnType<typeof createConfigRepo>;
