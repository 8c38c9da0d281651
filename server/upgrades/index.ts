export { upgradeDatabase } from './upgrades.module';
export type { UpgradeOptions, UpgradeResult } from './upgrade-database';
export { isUpgradeError, restoreCommand, UpgradeError, type UpgradeErrorCode } from './upgrade-errors';
export { KEPT_SNAPSHOTS, pruneSnapshots } from './pre-migration-snapshot';
