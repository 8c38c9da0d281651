import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Clock } from '../platform/clock';
import { notFound } from '../platform/http/errors';
import type { Logger } from '../platform/log';
import { ensurePrivateDir, restrictFiles } from '../platform/private-files';
import { listFiles, writeZip, type BackupManifest } from './archive';
import type { BackupRepo } from './backup.repo';
import type { BackupInfo } from '../contracts/backups';

/** Folders of the data dir that a backup carries besides the database. */
export const BACKED_UP_FOLDERS = ['uploads', 'indexes'] as const;
/** Loose files of the data dir that a backup carries. */
export const BACKED_UP_FILES = ['install-id'] as const;

/**
 * A snapshot taken before a database update (server/upgrades): `pre-<from>-to-<to>-<YYYYMMDD>-<HHMMSS>`,
 * `.zip` (SQLite, a backup like the others) or `.dump` (PostgreSQL, pg_dump's custom format).
 */
export const PRE_UPDATE_NAME = /^pre-[\w.]+-to-[\w.]+-(\d{8}-\d{6})(-\d+)?\.(zip|dump)$/;
const ADMIN_NAME = /^parley-backup-\d{8}-\d{6}(-\d+)?\.zip$/;
/** Names this service lists and serves: admins' backups and pre-update snapshots. */
const isBackupName = (name: string) => ADMIN_NAME.test(name) || PRE_UPDATE_NAME.test(name);

/** A backup file as the API lists it. */
export type { BackupInfo } from '../contracts/backups';

function stamp(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}`;
}

/** Consistent snapshots of the data dir: database (online), uploads and indexes, in one ZIP. */
export function createBackupService(deps: { repo: BackupRepo; dataDir: string; clock: Clock; log: Logger }) {
  const folder = path.join(deps.dataDir, 'backups');
  let running: Promise<BackupInfo> | undefined;

  async function create(target?: string): Promise<BackupInfo> {
    ensurePrivateDir(folder);
    let name = `parley-backup-${stamp(deps.clock.nowMs())}.zip`;
    for (let n = 1; !target && existsSync(path.join(folder, name)); n += 1) name = `parley-backup-${stamp(deps.clock.nowMs())}-${n}.zip`;
    const file = target ?? path.join(folder, name);
    const work = path.join(folder, `.work-${process.pid}-${Date.now()}`);
    ensurePrivateDir(work);
    try {
      const dbCopy = path.join(work, 'parley.db');
      await deps.repo.snapshotTo(dbCopy);
      const manifest: BackupManifest = { format: 'parley-backup', version: 1, created_at: deps.clock.now(), migrations: await deps.repo.appliedMigrations() };
      const files = [
        ...BACKED_UP_FOLDERS.flatMap((dir) => listFiles(path.join(deps.dataDir, dir), deps.dataDir)),
        ...BACKED_UP_FILES.filter((f) => existsSync(path.join(deps.dataDir, f))),
      ];
      const partial = `${file}.partial`;
      await writeZip(partial, deps.dataDir, files, {
        'manifest.json': Buffer.from(JSON.stringify(manifest, null, 2)),
        'parley.db': readFileSync(dbCopy),
      });
      // An existing file kept its mode when overwritten (`--out` onto an old backup): 0600 now.
      restrictFiles(partial);
      renameSync(partial, file);
      const info = { name: path.basename(file), size: statSync(file).size, created_at: manifest.created_at };
      deps.log.info({ backup: info.name, size: info.size, files: files.length }, 'backup written');
      return info;
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }

  return {
    /** Writes a new backup (one at a time; a second request waits for the running one). */
    async create(target?: string): Promise<BackupInfo> {
      while (running) await running.catch(() => undefined);
      running = create(target);
      try {
        return await running;
      } finally {
        running = undefined;
      }
    },

    list(): BackupInfo[] {
      if (!existsSync(folder)) return [];
      return readdirSync(folder)
        .filter(isBackupName)
        .map((n) => {
          const st = statSync(path.join(folder, n));
          return { name: n, size: st.size, created_at: Math.floor(st.mtimeMs / 1000) };
        })
        .sort((a, b) => b.name.localeCompare(a.name));
    },

    /** The path of a stored backup; only names this service produces are accepted. */
    pathOf(name: string): string {
      const file = path.join(folder, name);
      if (!isBackupName(name) || !existsSync(file)) throw notFound('No such backup', 'BACKUP_NOT_FOUND');
      return file;
    },

    remove(name: string): void {
      rmSync(this.pathOf(name));
    },
  };
}
export type BackupService = ReturnType<typeof createBackupService>;
