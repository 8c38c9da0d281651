export { upgradeDatabase, type UpgradeOptions, type UpgradeResult } from './upgrade-database';
export { isUpgradeError, restoreCommand, UpgradeError, type UpgradeErrorCode } from './upgrade-errors';
export { KEPT_SNAPSHOTS, pruneSnapshots } from './pre-migration-snapshot';
