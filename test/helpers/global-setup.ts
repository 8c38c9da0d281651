import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { startPostgresCluster, testingOnPostgres, TEST_PG_URL_ENV } from './postgres';

/**
 * Builds the service once before the suite, so tests of the built output see the current sources.
 * With PARLEY_TEST_DB=postgres it also starts a throwaway PostgreSQL cluster for the whole run
 * (each test server gets a database of its own) and removes it at the end.
 */
export default async function setup(): Promise<(() => void) | undefined> {
  const root = path.resolve(import.meta.dirname, '../..');
  const build = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs'), '--server-only', '--quiet'], { cwd: root, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}\n${build.stderr}`);
  if (!testingOnPostgres()) return undefined;
  const cluster = await startPostgresCluster();
  // Test workers are forked after this and inherit the environment.
  process.env[TEST_PG_URL_ENV] = cluster.baseUrl;
  return () => cluster.stop();
}
