import { DataDirError } from '../data-dir';
import { StartRefused } from '../start-refused';
import { dialectOf, type Db } from './knex';

/** PostgreSQL cannot be reached or refuses Parley's connection. */
export class DatabaseUnreachable extends StartRefused {}

/** `host:port/database` of a PostgreSQL URL, never its password. */
export function postgresPlace(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return 'PARLEY_DATABASE_URL';
  }
}

function firstLine(error: unknown): string {
  return String((error as Error | undefined)?.message ?? error).split('\n')[0]!;
}

/** Why PostgreSQL refused or could not be reached, in words (pg's error codes and Node's network codes). */
function postgresReason(error: unknown, url: string): string {
  const code = (error as { code?: string } | undefined)?.code;
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  const role = decodeURIComponent(parsed?.username || 'postgres');
  const database = decodeURIComponent(parsed?.pathname.slice(1) || role);
  switch (code) {
    case 'ECONNREFUSED':
      return 'nothing answers there (connection refused)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host name ${parsed?.hostname ?? ''} is not known`;
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EHOSTDOWN':
      return 'the server cannot be reached';
    case 'ECONNRESET':
      return 'the server cut the connection';
    case '28P01':
      return `the password of role ${role} was refused`;
    case '28000':
      return `role ${role} may not connect (check the role and pg_hba.conf)`;
    case '3D000':
      return `database ${database} does not exist (create it first: createdb --owner ${role} ${database})`;
    case '57P03':
      return 'the server is starting up or shutting down; try again in a moment';
    case '53300':
      return 'the server has no free connection left (max_connections)';
  }
  if ((error as Error | undefined)?.name === 'KnexTimeoutError') return 'it did not answer in time';
  return firstLine(error);
}

/** Why the data dir's SQLite file cannot be used, in words (node-sqlite3's error codes). */
function sqliteProblem(error: unknown, dbFile: string): string {
  switch ((error as { code?: string } | undefined)?.code) {
    case 'SQLITE_NOTADB':
    case 'SQLITE_CORRUPT':
      return `${dbFile} is not a readable SQLite database (damaged, or another program's file); restore the data dir from a backup (npm run restore)`;
    case 'SQLITE_CANTOPEN':
    case 'SQLITE_PERM':
    case 'SQLITE_READONLY':
      return `${dbFile} cannot be opened for writing by this OS account; check its owner and permissions`;
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      return `${dbFile} is locked by another program; close it and start Parley again`;
    default:
      return `${dbFile} cannot be opened: ${firstLine(error)}`;
  }
}

/**
 * Opens the database's first connection before anything else uses it, so a database that cannot
 * be used is said in one line (where it is and why), not as a driver's stack trace halfway
 * through the migrations.
 */
export async function checkFirstConnection(db: Db, where: { databaseUrl?: string; dbFile: string }): Promise<void> {
  try {
    await db.raw('SELECT 1');
  } catch (error) {
    if (dialectOf(db) === 'postgres' && where.databaseUrl) {
      throw new DatabaseUnreachable(`PostgreSQL at ${postgresPlace(where.databaseUrl)} cannot be used: ${postgresReason(error, where.databaseUrl)}; check PARLEY_DATABASE_URL and that the server is running`);
    }
    throw new DataDirError(sqliteProblem(error, where.dbFile));
  }
}
