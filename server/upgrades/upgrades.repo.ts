import { dialectOf, migrate, type Db } from '../platform/db/knex';
import type { MigrationList } from '../platform/db/migrations';

/** The Parley version that last wrote a database, as it recorded itself. */
export interface WriterVersion {
  version: string;
  /** The newest migration that version knew. */
  schema: string;
}

/** The database's own record of its schema: what knex applied and which versions opened it. */
export function createUpgradesRepo(db: Db) {
  return {
    /** Which database this is. */
    dialect: dialectOf(db),

    /** Applies the pending migrations of `list` (knex runs them in one transaction). */
    async migrate(list: MigrationList): Promise<void> {
      await migrate(db, list);
    },

    /** Names of the applied migrations in the order they ran; empty for a new database. */
    async appliedMigrations(): Promise<string[]> {
      if (!(await db.schema.hasTable('knex_migrations'))) return [];
      const rows = await db('knex_migrations').orderBy('id').select<{ name: string }[]>('name');
      return rows.map((r) => r.name);
    },

    /** The newest version that recorded itself (none before the `app_versions` table existed). */
    async lastWriter(): Promise<WriterVersion | undefined> {
      if (!(await db.schema.hasTable('app_versions'))) return undefined;
      const row = await db('app_versions').orderBy('id', 'desc').first<WriterVersion | undefined>('version', 'schema');
      return row ? { version: row.version, schema: row.schema } : undefined;
    },

    /** Records that `writer` opened the database, unless it is the last one recorded. */
    async recordWriter(writer: WriterVersion, openedAt: number): Promise<void> {
      if (!(await db.schema.hasTable('app_versions'))) return;
      const last = await this.lastWriter();
      if (last && last.version === writer.version && last.schema === writer.schema) return;
      await db('app_versions').insert({ version: writer.version, schema: writer.schema, opened_at: openedAt });
    },
  };
}
export type UpgradesRepo = ReturnType<typeof createUpgradesRepo>;
