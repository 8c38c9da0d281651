import { createBackupRepo } from '../backup';
import type { Db } from '../platform/db/knex';
import { runUpgrade, type UpgradeOptions, type UpgradeResult } from './upgrade-database';
import { createUpgradesRepo } from './upgrades.repo';

/** Brings `db` to this Parley's schema safely (see runUpgrade): its repos wired from the open database. */
export function upgradeDatabase(options: Omit<UpgradeOptions, 'repo' | 'backups'> & { db: Db }): Promise<UpgradeResult> {
  const { db, ...rest } = options;
  return runUpgrade({ ...rest, repo: createUpgradesRepo(db), backups: createBackupRepo(db) });
}
