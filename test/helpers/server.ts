import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, type RunningServer, type StartServerOptions } from '../../server/start';
import { memorySecretStore } from '../../server/secrets';
import { isUpgradeError, type UpgradeError } from '../../server/upgrades';
import { createClient, type ServiceClients } from './client';
import { createTestDatabase, databaseNameFor, dropTestDatabase, testClusterUrl } from './postgres';

/** A real service on 127.0.0.1 and an ephemeral port, with a temp data dir removed on close. */
export interface TestServer extends RunningServer, ServiceClients {}

export interface TestServerOptions extends StartServerOptions {
  /** Extra environment (for example PARLEY_SIGNIN_RATE_LIMIT). */
  envVars?: Record<string, string>;
  /** Keep the data dir after close (for restart tests); the caller removes it. */
  keepDataDir?: boolean;
  /** Stay on SQLite even when the run targets PostgreSQL (PARLEY_TEST_DB=postgres). */
  sqlite?: boolean;
}

/** A fresh temporary data dir. */
export function tempDataDir(prefix = 'parley-test-'): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Starts the service for a test. Always `await server.close()` (usually in afterAll). */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? tempDataDir();
  const { envVars, keepDataDir, sqlite, ...rest } = options;
  // PARLEY_TEST_DB=postgres: a database of this data dir's own on the test cluster (a restart
  // with the same data dir finds it again); dropped with the data dir.
  const cluster = sqlite ? null : testClusterUrl();
  const dbName = databaseNameFor(dataDir);
  const databaseEnv = cluster && !envVars?.PARLEY_DATABASE_URL ? { PARLEY_DATABASE_URL: await createTestDatabase(cluster, dbName) } : {};
  const running = await startServer({
    host: '127.0.0.1',
    port: 0,
    logLevel: 'warn',
    logToStdout: false,
    secrets: rest.secrets ?? memorySecretStore(),
    rendererDir: path.join(dataDir, 'no-renderer'),
    ...rest,
    dataDir,
    // Tests sign up many accounts from one address: the sign-up limit is opt-in here.
    env: { PARLEY_SIGNUP_RATE_LIMIT: '0', ...databaseEnv, ...envVars },
  });
  return {
    ...running,
    anon: createClient(running.url),
    as: (token: string) => createClient(running.url, token),
    close: async () => {
      await running.close();
      if (!keepDataDir && !options.dataDir) {
        rmSync(dataDir, { recursive: true, force: true });
        if (cluster && databaseEnv.PARLEY_DATABASE_URL) await dropTestDatabase(cluster, dbName);
      }
    },
  };
}

/** The UpgradeError a start ends with (fails when the service started, or failed otherwise). */
export async function upgradeRefusal(start: Promise<RunningServer>): Promise<UpgradeError> {
  const error = await start.then(
    async (server) => {
      await server.close();
      throw new Error('the service started');
    },
    (e: unknown) => e,
  );
  if (!isUpgradeError(error)) throw error;
  return error;
}
