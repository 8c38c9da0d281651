import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './free-port';

/**
 * A throwaway PostgreSQL cluster for tests, from Debian's `postgresql` package: `initdb` in a temp
 * dir, `pg_ctl` on a free loopback port with its unix socket in the same dir, trust auth for the
 * `postgres` role. As root the server runs as the `postgres` OS account (initdb refuses root).
 */
export interface PostgresCluster {
  /** `postgres://postgres@127.0.0.1:<port>` (no database). */
  baseUrl: string;
  stop(): void;
}

/** The env var the global setup fills with the running cluster's base URL. */
export const TEST_PG_URL_ENV = 'PARLEY_TEST_PG_URL';

/** True when this test run targets PostgreSQL (`PARLEY_TEST_DB=postgres`). */
export function testingOnPostgres(): boolean {
  return process.env.PARLEY_TEST_DB === 'postgres';
}

/** The newest installed PostgreSQL's bin folder, or null. */
export function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : null;
}

/** Starts a cluster; throws with the tool's output when PostgreSQL is missing or fails to start. */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL is not installed (apt-get install -y postgresql): needed for PARLEY_TEST_DB=postgres');
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-pg-'));
  const dataDir = path.join(dir, 'data');
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
    chmodSync(dir, 0o700);
  }
  const run = (tool: string, args: string[]) => {
    const cmd = asRoot ? 'runuser' : path.join(bin, tool);
    const argv = asRoot ? ['-u', 'postgres', '--', path.join(bin, tool), ...args] : args;
    const r = spawnSync(cmd, argv, { encoding: 'utf8', cwd: dir, timeout: 120_000 });
    if (r.status !== 0) throw new Error(`${tool} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  };
  run('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8', '--no-sync']);
  const port = await freePort();
  // Settings for a disposable test cluster: no durability, small memory, enough connections for
  // parallel test files each holding a pool.
  const options = `-p ${port} -k ${dir} -h 127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300 -c shared_buffers=64MB`;
  run('pg_ctl', ['-D', dataDir, '-o', options, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  let stopped = false;
  return {
    baseUrl: `postgres://postgres@127.0.0.1:${port}`,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** A database name for a data dir: the same dir (a restarted service) finds the same database. */
export function databaseNameFor(dataDir: string): string {
  return `parley_${createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 20)}`;
}

async function withAdmin<T>(baseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: `${baseUrl}/postgres` });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Runs one SQL statement on the database at `url` (its own connection) and answers its rows. */
export async function pgRows<T>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Creates the database (when missing) and answers its URL. */
export async function createTestDatabase(baseUrl: string, name: string): Promise<string> {
  await withAdmin(baseUrl, async (client) => {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name}"`);
  });
  return `${baseUrl}/${name}`;
}

/** Drops a test database, ending any connection still open on it. */
export async function dropTestDatabase(baseUrl: string, name: string): Promise<void> {
  await withAdmin(baseUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

/** The running cluster's base URL (set by the global setup), or null when testing on SQLite. */
export function testClusterUrl(): string | null {
  if (!testingOnPostgres()) return null;
  const url = process.env[TEST_PG_URL_ENV];
  if (!url) throw new Error(`PARLEY_TEST_DB=postgres but no cluster is running (${TEST_PG_URL_ENV} unset): run through vitest's global setup`);
  return url;
}
