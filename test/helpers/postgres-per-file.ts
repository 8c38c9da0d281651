import { afterAll, beforeAll } from 'vitest';
import { createTestDatabase, startPostgresCluster, testClusterUrl, type PostgresCluster } from './postgres';

/**
 * A PostgreSQL cluster for the test file that calls this (at its top level): the run's cluster
 * under `npm run test:pg`, else one of the file's own, started before its tests and stopped after.
 * `database()` creates a new empty database on it and answers its URL.
 */
export function postgresForThisFile(prefix: string): { baseUrl(): string; database(): Promise<string> } {
  let cluster: PostgresCluster | undefined;
  let baseUrl = '';
  let made = 0;
  beforeAll(async () => {
    baseUrl = testClusterUrl() ?? (cluster = await startPostgresCluster()).baseUrl;
  }, 120_000);
  afterAll(() => cluster?.stop());
  return {
    baseUrl: () => baseUrl,
    database: () => {
      made += 1;
      return createTestDatabase(baseUrl, `${prefix}_${process.pid}_${made}`);
    },
  };
}
