import { mkdirSync } from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { migrationSource } from './migrations';

export type Db = Knex;

interface RawSqlite {
  exec(sql: string, cb: (err: Error | null) => void): void;
}

const PRAGMAS = [
  'PRAGMA journal_mode = WAL',
  'PRAGMA foreign_keys = ON',
  'PRAGMA busy_timeout = 5000',
  'PRAGMA synchronous = NORMAL',
  // Bounded page cache: 8 MB (negative = KiB).
  'PRAGMA cache_size = -8000',
  'PRAGMA temp_store = MEMORY',
].join('; ');

/** Opens `<dataDir>/parley.db` with WAL, foreign keys and a bounded cache, on one connection (one writer). */
export function openDatabase(dataDir: string): Db {
  mkdirSync(dataDir, { recursive: true });
  return knexFactory({
    client: 'sqlite3',
    connection: { filename: path.join(dataDir, 'parley.db') },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      idleTimeoutMillis: 2_147_483_647,
      afterCreate: (conn: RawSqlite, done: (err: Error | null, conn: RawSqlite) => void) => {
        conn.exec(PRAGMAS, (err) => done(err, conn));
      },
    },
    migrations: { migrationSource, tableName: 'knex_migrations' },
  });
}

/** Applies every pending migration. */
export async function migrate(db: Db): Promise<void> {
  await db.migrate.latest();
}

/** Checkpoints the WAL into the main file and closes the pool. */
export async function closeDatabase(db: Db): Promise<void> {
  try {
    await db.raw('PRAGMA wal_checkpoint(TRUNCATE)');
  } finally {
    await db.destroy();
  }
}
