import type { Db } from '../platform/db/knex';

/** Database operations backups need. */
export function createBackupRepo(db: Db) {
  return {
    /** Writes a consistent copy of the live database to `file` (SQLite `VACUUM INTO`). */
    async snapshotTo(file: string): Promise<void> {
      await db.raw('VACUUM INTO ?', [file]);
    },
    /** Names of the applied migrations, newest last. */
    async appliedMigrations(): Promise<string[]> {
      const rows = await db('knex_migrations').orderBy('id').select<{ name: string }[]>('name');
      return rows.map((r) => r.name);
    },
  };
}
export type BackupRepo = ReturnType<typeof createBackupRepo>;
