import { mkdirSync } from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { migrationSource, migrationSourceOf, type MigrationList } from './migrations';
import { pgDriver } from './pg-driver';

export type Db = Knex;

/** The engines Parley runs on: SQLite in the data dir (the default) or PostgreSQL (`PARLEY_DATABASE_URL`). */
export type Dialect = 'sqlite' | 'postgres';

/** Where the database lives: the data dir's SQLite file unless a PostgreSQL URL is given. */
export interface DatabaseLocation {
  dataDir: string;
  /** `postgres://…` (or `postgresql://…`); absent = SQLite. */
  databaseUrl?: string;
  /** PostgreSQL connection pool size (default 10). */
  poolSize?: number;
  /** PostgreSQL `application_name` of the pool's connections (names the writer in change notices). */
  applicationName?: string;
  /** A reader beside the service's connection (a worker's): SQLite refuses writes on it, PostgreSQL opens read-only transactions. */
  readOnly?: boolean;
  /** Where the driver's warnings go (a failed connection attempt, …); knex prints them on the console otherwise. */
  warn?: (message: string) => void;
}

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

/** A reader's pragmas: the journal mode is the writer's business; writes are refused. */
const READER_PRAGMAS = ['PRAGMA busy_timeout = 5000', 'PRAGMA cache_size = -8000', 'PRAGMA temp_store = MEMORY', 'PRAGMA query_only = ON'].join('; ');

/** PostgreSQL type ids whose text form pg leaves as strings; SQLite returns numbers for them. */
const PG_INT8 = 20;
const PG_NUMERIC = 1700;

/** True for a `postgres://` or `postgresql://` URL. */
export function isPostgresUrl(url: string | undefined): url is string {
  return typeof url === 'string' && /^postgres(ql)?:\/\//i.test(url);
}

/** The engine behind an open database. */
export function dialectOf(db: Db): Dialect {
  const client = (db.client as { config: { client: unknown } }).config.client;
  return client === 'pg' ? 'postgres' : 'sqlite';
}

/**
 * Opens the database: `<dataDir>/parley.db` (WAL, foreign keys, bounded cache, one connection =
 * one writer), or PostgreSQL when `databaseUrl` is given (a pool; counts and bigint columns come
 * back as numbers, as they do from SQLite). Accepts a bare data dir for the SQLite default.
 */
export function openDatabase(location: string | DatabaseLocation): Db {
  const where: DatabaseLocation = typeof location === 'string' ? { dataDir: location } : location;
  const log = where.warn ? { log: { warn: where.warn } } : {};
  if (isPostgresUrl(where.databaseUrl)) return openPostgres(where.databaseUrl, where.poolSize ?? 10, { applicationName: where.applicationName, readOnly: where.readOnly === true, log });
  mkdirSync(where.dataDir, { recursive: true });
  return knexFactory({
    client: 'sqlite3',
    connection: { filename: path.join(where.dataDir, 'parley.db') },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      idleTimeoutMillis: 2_147_483_647,
      afterCreate: (conn: RawSqlite, done: (err: Error | null, conn: RawSqlite) => void) => {
        conn.exec(where.readOnly ? READER_PRAGMAS : PRAGMAS, (err) => done(err, conn));
      },
    },
    migrations: { migrationSource, tableName: 'knex_migrations' },
    ...log,
  });
}

/** PostgreSQL text cannot hold NUL characters (SQLite's can): they become U+FFFD instead of failing the query. */
function withoutNul(value: unknown): unknown {
  return typeof value === 'string' && value.includes('\u0000') ? value.replaceAll('\u0000', '\uFFFD') : value;
}

function openPostgres(url: string, poolSize: number, options: { applicationName?: string; readOnly: boolean; log: Pick<Knex.Config, 'log'> }): Db {
  const pg = pgDriver();
  const db = knexFactory({
    ...options.log,
    client: 'pg',
    connection: {
      connectionString: url,
      ...(options.applicationName ? { application_name: options.applicationName } : {}),
      ...(options.readOnly ? { options: '-c default_transaction_read_only=on' } : {}),
      // Per-pool parsers (not pg's global ones): bigint and numeric (count, sum) as JS numbers.
      types: {
        getTypeParser: (oid: number, format?: string) => {
          if (oid === PG_INT8) return (value: string) => Number.parseInt(value, 10);
          if (oid === PG_NUMERIC) return (value: string) => Number.parseFloat(value);
          return pg.types.getTypeParser(oid, format as 'text');
        },
      },
    },
    pool: { min: 0, max: Math.max(1, poolSize) },
    migrations: { migrationSource, tableName: 'knex_migrations' },
  });
  // Every query's bindings pass through prepBindings (builder and raw alike).
  const client = db.client as { prepBindings(bindings: unknown[]): unknown[] };
  const prep = client.prepBindings.bind(client);
  client.prepBindings = (bindings) => prep(Array.isArray(bindings) ? bindings.map(withoutNul) : bindings);
  return db;
}

/**
 * Applies every pending migration, all in one transaction (knex's default while no migration
 * turns transactions off): a failure leaves the database as it was. A test may give its own list.
 */
export async function migrate(db: Db, list?: MigrationList): Promise<void> {
  await db.migrate.latest(list ? { migrationSource: migrationSourceOf(list) } : undefined);
  if (dialectOf(db) === 'postgres') await widenVarchars(db);
}

/**
 * PostgreSQL only: knex's `string()` is varchar(255) there, while SQLite never enforces a length
 * (the service's own validation bounds each field). Turning every varchar into text keeps both
 * engines accepting the same rows; varchar → text needs no table rewrite, and it runs after each
 * migration batch so later migrations are covered too.
 */
async function widenVarchars(db: Db): Promise<void> {
  const { rows } = (await db.raw(
    `SELECT table_name, column_name FROM information_schema.columns
     WHERE table_schema = current_schema() AND data_type = 'character varying'`,
  )) as { rows: Array<{ table_name: string; column_name: string }> };
  for (const r of rows) await db.raw('ALTER TABLE ?? ALTER COLUMN ?? TYPE text', [r.table_name, r.column_name]);
}

/** Rows of a raw SELECT on either engine (SQLite answers an array, pg a result with `rows`). */
export async function rawRows<T>(db: Db | Knex.Transaction, sql: string, bindings: readonly unknown[] = []): Promise<T[]> {
  const result = (await db.raw(sql, bindings as Knex.RawBinding[])) as unknown;
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/** Checkpoints the WAL into the main file (SQLite) and closes the pool. */
export async function closeDatabase(db: Db): Promise<void> {
  try {
    if (dialectOf(db) === 'sqlite') await db.raw('PRAGMA wal_checkpoint(TRUNCATE)');
  } finally {
    await db.destroy();
  }
}
