import { defineConfig } from 'vitest/config';
import base from './vitest.config';

/**
 * The integration suite on PostgreSQL (`npm run test:pg`): the global setup starts a throwaway
 * cluster and each test server gets a database of its own. Files listed here test SQLite itself
 * (its file on disk, VACUUM INTO, integrity checks, WAL) and have no PostgreSQL meaning; each says why.
 */
export const SQLITE_ONLY: Record<string, string> = {
  'test/integration/backup.test.ts': 'backups are SQLite VACUUM INTO copies of the data dir; on PostgreSQL backups are pg_dump (refused by the service, see docs/operations.md)',
  'test/integration/crash-safety.test.ts': 'kills the service mid-write and checks the SQLite file with PRAGMA integrity_check and its WAL',
  'test/integration/data-permissions.test.ts': 'checks the file modes of parley.db and its -wal/-shm files',
  'test/integration/secrets-leak.test.ts': 'scans the SQLite database file and WAL on disk for secrets in clear text',
  'test/integration/packaging.test.ts': 'checks the packaged desktop app (SQLite only), not the database',
  'test/integration/safe-operations.test.ts': 'runs the built service and backup CLI on SQLite data dirs (files, locks, VACUUM INTO)',
  'test/integration/offline-first-hour.test.ts': 'runs the built service on a SQLite data dir inside a loopback-only network namespace',
  'test/integration/upgrades.test.ts': "opens the SQLite upgrade fixtures on SQLite (their PostgreSQL side: upgrades-postgres.test.ts, which runs in both)",
  'test/integration/upgrade-safety.test.ts': "SQLite data dirs' pre-update ZIP snapshots and SQLite migrations (PostgreSQL's: upgrade-safety-postgres.test.ts, which runs in both)",
  'test/integration/start-failures.test.ts': 'runs the built CLI with settings of its own (broken data dirs, an unreachable PostgreSQL); the run\'s database plays no part',
};

// Spread, not mergeConfig: mergeConfig would append to the base's include list and run the unit
// tests (which never open a database) a second time.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/integration/**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**', 'test/e2e/**', ...Object.keys(SQLITE_ONLY)],
    env: { PARLEY_TEST_DB: 'postgres' },
  },
});
