import { conflict } from '../platform/http/errors';
import { dialectOf, type Db } from '../platform/db/knex';

/** Said when a backup is asked of a PostgreSQL-backed service. */
export const PG_BACKUP_REFUSAL =
  "This service keeps its data in PostgreSQL: back it up with PostgreSQL's own tools (pg_dump -Fc, see docs/operations.md, PostgreSQL backups); Parley's backups copy the SQLite database only";

/** Database operations backups need. */
export function createBackupRepo(db: Db) {
  return {
    /** Writes a consistent copy of the live database to `file` (SQLite `VACUUM INTO`); refused with 409 on PostgreSQL. */
    async snapshotTo(file: string): Promise<void> {
      if (dialectOf(db) !== 'sqlite') throw conflict(PG_BACKUP_REFUSAL, 'BACKUP_USE_PG_DUMP');
      await db.raw('VACUUM INTO ?', [file]);
    },
    /** Names of the applied migrations, newest last. */
    async appliedMigrations(): Promise<string[]> {
      if (!(await db.schema.hasTable('knex_migrations'))) return [];
      const rows = await db('knex_migrations').orderBy('id').select<{ name: string }[]>('name');
      return rows.map((r) => r.name);
    },
  };
}
export type BackupRepo = ReturnType<typeof createBackupRepo>;
