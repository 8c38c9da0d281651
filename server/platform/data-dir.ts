import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock';
import { ensurePrivateDir, writePrivateFile } from './private-files';
import { StartRefused } from './start-refused';

/** What `npm run migrate-db` renames a data dir's SQLite database to once PostgreSQL holds a copy. */
export const MOVED_TO_POSTGRES = 'parley.db.moved-to-postgresql';

/** The data dir (or the shared folder) cannot be used; the message says why and what to do. */
export class DataDirError extends StartRefused {}

/** A folder Parley writes to, named as the person knows it and with the setting that chooses it. */
export interface Folder {
  dir: string;
  /** "the data dir", "the shared folder" */
  label: string;
  /** How to choose another: "--data-dir or PARLEY_DATA_DIR". */
  setting: string;
}

/** The data dir as a folder for error messages. */
export const dataDirFolder = (dir: string): Folder => ({ dir, label: 'the data dir', setting: '--data-dir or PARLEY_DATA_DIR' });
const sharedFolder = (dir: string): Folder => ({ dir, label: 'the shared folder', setting: 'PARLEY_SHARED_DIR' });

/** The first existing entry on the way up from `target` that is a file, not a folder. */
function fileInTheWay(target: string): string | undefined {
  for (let at = path.resolve(target); ; at = path.dirname(at)) {
    try {
      return statSync(at).isDirectory() ? undefined : at;
    } catch {
      if (path.dirname(at) === at) return undefined;
    }
  }
}

/** A file-system error on `folder`, in words: what is wrong and what to do, one line. */
export function folderProblem(error: unknown, folder: Folder): string {
  const e = error as NodeJS.ErrnoException;
  const at = e.path && path.resolve(e.path) !== path.resolve(folder.dir) ? ` (at ${e.path})` : '';
  const elsewhere = `choose a folder this OS account owns with ${folder.setting}`;
  switch (e.code) {
    case 'EACCES':
    case 'EPERM':
      return `${folder.label} ${folder.dir} cannot be written by this OS account: permission denied${at}; ${elsewhere}, or give this account access to it`;
    case 'ENOTDIR':
    case 'EEXIST': {
      const file = fileInTheWay(e.path ?? folder.dir);
      return `${folder.label} ${folder.dir} is not a folder${file ? ` (${file} is a file)` : ''}; ${elsewhere}`;
    }
    case 'EROFS':
      return `${folder.label} ${folder.dir} is on a read-only file system; ${elsewhere}`;
    case 'ENOSPC':
    case 'EDQUOT':
      return `the disk of ${folder.label} ${folder.dir} is full${at}; free some space and start Parley again`;
    case 'ENOENT':
      return `${folder.label} ${folder.dir} cannot be created${at}; ${elsewhere}`;
    default:
      return `${folder.label} ${folder.dir} cannot be used: ${e.message ?? String(error)}`;
  }
}

/** Runs file-system work on a folder, turning its errors into a DataDirError that says what is wrong. */
export function inFolder<T>(folder: Folder, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof StartRefused) throw error;
    throw new DataDirError(folderProblem(error, folder));
  }
}

/** The data dir's files the service opens at start. */
export interface OpenedDataDir {
  lock: DataDirLock;
  logFile: string;
  /** The SQLite database (created empty when missing and no PostgreSQL URL is set). */
  dbFile: string;
}

/**
 * Takes the data dir for this service: its folders created private (0700), a database migrate-db
 * moved to PostgreSQL refused when no PostgreSQL URL is set, the lock, the log file and (SQLite)
 * the database file. Every failure is a DataDirError naming the folder and the fix.
 */
export function openDataDir(options: { dataDir: string; sharedDir?: string; databaseUrl?: string }): OpenedDataDir {
  const folder = dataDirFolder(options.dataDir);
  const dbFile = path.join(options.dataDir, 'parley.db');
  inFolder(folder, () => {
    for (const dir of ['', 'uploads', 'indexes', 'logs']) ensurePrivateDir(path.join(options.dataDir, dir));
  });
  if (options.sharedDir) {
    const shared = sharedFolder(options.sharedDir);
    // Several instances: each keeps its own data dir (lock, logs, keys); uploads, index snapshots and model files are shared.
    inFolder(shared, () => {
      for (const dir of ['', 'uploads', 'indexes', 'models']) ensurePrivateDir(path.join(shared.dir, dir));
    });
  }
  if (!options.databaseUrl && !existsSync(dbFile)) refuseMovedDatabase(options.dataDir);
  const lock = inFolder(folder, () => acquireDataDirLock(options.dataDir));
  try {
    const logFile = path.join(options.dataDir, 'logs', 'parley.log');
    inFolder(folder, () => {
      if (!existsSync(logFile)) writePrivateFile(logFile, '');
      if (!options.databaseUrl && !existsSync(dbFile)) writePrivateFile(dbFile, '');
    });
    return { lock, logFile, dbFile };
  } catch (error) {
    lock.release();
    throw error;
  }
}

/** Started without PARLEY_DATABASE_URL on a data dir whose database now lives in PostgreSQL: say so instead of starting empty. */
function refuseMovedDatabase(dataDir: string): void {
  const moved = readdirSync(dataDir)
    .filter((name) => name.startsWith(MOVED_TO_POSTGRES) && !/-(wal|shm)$/.test(name))
    .sort();
  const last = moved[moved.length - 1];
  if (!last) return;
  throw new DataDirError(
    `the database of ${dataDir} was moved to PostgreSQL by npm run migrate-db (its SQLite copy is ${path.join(dataDir, last)}): ` +
      'start Parley with PARLEY_DATABASE_URL=postgres://…, or rename that file back to parley.db to keep using SQLite',
  );
}
