import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { DataDirInUseError, dataDirHolder, LOCK_FILE } from '../platform/data-dir-lock';
import { checkIntegrity } from '../platform/db/integrity';
import { extractZip, type BackupManifest } from './archive';

export interface RestoreOptions {
  /** The backup ZIP. */
  archive: string;
  /** The data dir to restore into; the service must not be running on it. */
  dataDir: string;
  /** Replace a data dir that already holds a database (the old one is kept beside it). */
  force?: boolean;
  /** Upper bound of the unpacked size (default 20 GB). */
  maxBytes?: number;
}

/** What a restore did. */
export interface RestoreResult {
  files: number;
  /** Where the previous data dir was moved, when there was one. */
  previous?: string;
}

/** What the restored backup replaces: the previous database and its lock stay in the folder moved aside. */
const NOT_CARRIED_OVER = new Set(['parley.db', 'parley.db-wal', 'parley.db-shm', LOCK_FILE]);

async function integrityCheck(file: string): Promise<void> {
  const result = await checkIntegrity(file);
  if (result !== 'ok') throw new Error(`The database in the backup is damaged: ${result}`);
}

/**
 * Restores a backup into a data dir: unpacks into a staging folder beside it (refusing unsafe
 * archives), checks the manifest and the database's integrity, then swaps the folders, so a
 * failed restore leaves the current data untouched.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const dataDir = path.resolve(options.dataDir);
  const parent = path.dirname(dataDir);
  mkdirSync(parent, { recursive: true });
  // A running service would keep writing into the folder moved aside, and later work would be lost.
  const holder = dataDirHolder(dataDir);
  if (holder) throw new DataDirInUseError(dataDir, holder);
  const occupied = existsSync(path.join(dataDir, 'parley.db'));
  if (occupied && !options.force) {
    throw new Error(`${dataDir} already holds a Parley database; pass --force to replace it (the current data is kept beside it)`);
  }
  const staging = mkdtempSync(path.join(parent, '.parley-restore-'));
  try {
    const files = await extractZip(options.archive, staging, { maxEntries: 1_000_000, maxTotalBytes: options.maxBytes ?? 20 * 1024 ** 3 });
    const manifestFile = path.join(staging, 'manifest.json');
    if (!existsSync(manifestFile)) throw new Error('This is not a Parley backup (no manifest.json)');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as BackupManifest;
    if (manifest.format !== 'parley-backup' || manifest.version !== 1) throw new Error('Unsupported backup format');
    if (!existsSync(path.join(staging, 'parley.db'))) throw new Error('The backup holds no database');
    await integrityCheck(path.join(staging, 'parley.db'));
    rmSync(manifestFile);
    let previous: string | undefined;
    if (existsSync(dataDir)) {
      previous = `${dataDir}.before-restore-${Date.now()}`;
      renameSync(dataDir, previous);
      // Keep what a backup does not carry (the secret store, logs, other backups, built-in model
      // files, the LAN certificate): everything but the old database, its WAL and the lock.
      for (const name of readdirSync(previous)) {
        if (NOT_CARRIED_OVER.has(name)) continue;
        const to = path.join(staging, name);
        if (!existsSync(to)) renameSync(path.join(previous, name), to);
      }
    }
    renameSync(staging, dataDir);
    return { files: files.length - 1, previous };
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
}
