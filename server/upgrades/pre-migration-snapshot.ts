import { spawn } from 'node:child_process';
import { existsSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createBackupService, PRE_UPDATE_NAME, type BackupRepo } from '../backup';
import type { Clock } from '../platform/clock';
import type { Dialect } from '../platform/db/knex';
import type { Logger } from '../platform/log';
import { ensurePrivateDir, restrictFiles } from '../platform/private-files';
import { UpgradeError, withoutPassword } from './upgrade-errors';

/** Pre-migration snapshots kept in `backups/`; older ones are removed after a new one is written. */
export const KEPT_SNAPSHOTS = 3;

export interface SnapshotInput {
  dialect: Dialect;
  /** The database's backup operations (the SQLite snapshot). */
  backups: BackupRepo;
  dataDir: string;
  databaseUrl?: string;
  /** Database version before the update (the newest applied migration's date stamp). */
  from: string;
  /** Database version after it (the newest migration this Parley knows). */
  to: string;
  clock: Clock;
  log: Logger;
  /** The pg_dump program (PARLEY_PG_DUMP); `pg_dump` on the PATH when unset. */
  pgDump?: string;
  /** PARLEY_CONFIRM_BACKUP: the `to` version an admin backed up for, when pg_dump cannot run. */
  confirmBackup?: string;
}

function stamp(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}`;
}

/** A free name in `folder` for a snapshot from `from` to `to` taken now. */
function snapshotPath(folder: string, input: SnapshotInput, extension: 'zip' | 'dump'): string {
  const base = `pre-${input.from}-to-${input.to}-${stamp(input.clock.nowMs())}`;
  let file = path.join(folder, `${base}.${extension}`);
  for (let n = 1; existsSync(file); n += 1) file = path.join(folder, `${base}-${n}.${extension}`);
  return file;
}

/** Removes all but the newest KEPT_SNAPSHOTS pre-migration snapshots (by the time in their names). */
export function pruneSnapshots(folder: string, keep = KEPT_SNAPSHOTS): string[] {
  if (!existsSync(folder)) return [];
  const snapshots = readdirSync(folder)
    .map((name) => ({ name, match: PRE_UPDATE_NAME.exec(name) }))
    .filter((s): s is { name: string; match: RegExpExecArray } => s.match !== null)
    .sort((a, b) => `${b.match[1]}${b.match[2] ?? ''}`.localeCompare(`${a.match[1]}${a.match[2] ?? ''}`, 'en', { numeric: true }));
  const removed = snapshots.slice(keep).map((s) => s.name);
  for (const name of removed) rmSync(path.join(folder, name), { force: true });
  return removed;
}

/** Runs pg_dump into `file` (custom format); resolves, or rejects with what went wrong. */
function runPgDump(program: string, databaseUrl: string, file: string): Promise<void> {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  // The password goes through the environment, never the command line other accounts can list.
  const env = { ...process.env, ...(password ? { PGPASSWORD: password } : {}) };
  return new Promise((resolve, reject) => {
    const child = spawn(program, ['--format=custom', '--no-owner', `--file=${file}`, `--dbname=${withoutPassword(databaseUrl)}`], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString('utf8');
    });
    child.on('error', (error: NodeJS.ErrnoException) => reject(new Error(error.code === 'ENOENT' ? `${program} was not found` : `${program} could not run: ${error.message}`)));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${program} failed (exit ${code}): ${stderr.trim().split('\n').slice(-3).join(' ')}`))));
  });
}

async function snapshotPostgres(input: SnapshotInput & { databaseUrl: string }, folder: string): Promise<string | undefined> {
  const program = input.pgDump ?? 'pg_dump';
  const file = snapshotPath(folder, input, 'dump');
  const partial = `${file}.partial`;
  try {
    // Created 0600 first: pg_dump writes into it with the process umask otherwise.
    writeFileSync(partial, '', { mode: 0o600 });
    await runPgDump(program, input.databaseUrl, partial);
    restrictFiles(partial);
    renameSync(partial, file);
    return file;
  } catch (error) {
    rmSync(partial, { force: true });
    const why = (error as Error).message;
    if (input.confirmBackup?.trim() === input.to) {
      input.log.warn({ from: input.from, to: input.to, why }, 'no snapshot before the database update: PARLEY_CONFIRM_BACKUP says an admin backed the database up');
      return undefined;
    }
    const confirmed = input.confirmBackup ? ` (PARLEY_CONFIRM_BACKUP is '${input.confirmBackup}', not this update's '${input.to}')` : '';
    throw new UpgradeError(
      'BACKUP_REQUIRED',
      `This Parley must update the PostgreSQL database from version ${input.from} to ${input.to}, and it takes a snapshot first, but ${why}. ` +
        `Install PostgreSQL's client tools (pg_dump of the server's major version or newer) or set PARLEY_PG_DUMP to its path; ` +
        `or back the database up yourself (pg_dump -Fc -d "${withoutPassword(input.databaseUrl)}" -f parley-before-${input.to}.dump) ` +
        `and start Parley once with PARLEY_CONFIRM_BACKUP=${input.to}${confirmed}. Nothing has been changed.`,
    );
  }
}

/**
 * The snapshot taken before migrating a database that holds data, into `<dataDir>/backups/`
 * (0700, files 0600): the ordinary backup ZIP on SQLite; pg_dump's custom format on PostgreSQL,
 * or none when pg_dump cannot run and an admin confirmed a backup of their own. Keeps the last three.
 */
export async function takePreMigrationSnapshot(input: SnapshotInput): Promise<string | undefined> {
  const folder = path.join(input.dataDir, 'backups');
  ensurePrivateDir(folder);
  let file: string | undefined;
  if (input.dialect === 'postgres' && input.databaseUrl) {
    file = await snapshotPostgres({ ...input, databaseUrl: input.databaseUrl }, folder);
  } else {
    file = snapshotPath(folder, input, 'zip');
    await createBackupService({ repo: input.backups, dataDir: input.dataDir, clock: input.clock, log: input.log }).create(file);
  }
  if (file) {
    const removed = pruneSnapshots(folder);
    input.log.info({ snapshot: path.basename(file), from: input.from, to: input.to, removed }, 'snapshot taken before the database update');
  }
  return file;
}
