// Makes an upgrade fixture: the data dir an earlier Parley leaves behind, with the fingerprint of
// its data as that version shows it (test/integration/upgrades.test.ts opens it with today's
// Parley and expects the same fingerprint).
//
//   npm run make:upgrade-fixture -- --commit <rev> --name <round-N> [--note TEXT] [--postgres]
//
// 1. checks the commit out into a temporary git worktree;
// 2. installs it: a hard-linked copy of this repository's node_modules when the commit's lockfile
//    matches what is installed here, else `npm ci`;
// 3. builds its service and starts it (`dist/server/cli.js`) on a temporary data dir with the
//    file secret store (and, with --postgres, on a throwaway PostgreSQL database);
// 4. fills it through its HTTP API (test/upgrades/populate.ts) and records the fingerprint
//    (test/upgrades/fingerprint.ts);
// 5. stops it and packs the data dir (SQLite file, uploads, indexes, secret store; with
//    --postgres a plain pg_dump instead of the SQLite file) into
//    test/fixtures/upgrades/<name>/<sqlite|postgres>.zip, beside fixture.json.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import knexFactory from 'knex';
import { listFiles, writeZip } from '../server/backup/archive';
import { createTestDatabase, postgresBinDir, startPostgresCluster, type PostgresCluster } from '../test/helpers/postgres';
import { fingerprint, type Fingerprint } from '../test/upgrades/fingerprint';
import { populate, type Population } from '../test/upgrades/populate';
import { compareLockfile, isCompatible } from './lockfile-compat';

const root = path.resolve(import.meta.dirname, '..');
/** What a fixture may weigh, per variant: it is committed. */
const MAX_FIXTURE_BYTES = 2 * 1024 * 1024;
/** The data dir entries a fixture keeps (logs, backups and the lock are not data). */
const KEPT = ['parley.db', 'uploads', 'indexes', 'install-id', 'secrets.enc', 'secrets.key', 'secret-store'];

/** One packed data dir and what it must show. */
export interface FixtureVariant {
  archive: string;
  /** Migrations the earlier version had applied. */
  migrations: string[];
  population: Population;
  expected: Fingerprint;
}

/** test/fixtures/upgrades/<name>/fixture.json */
export interface FixtureFile {
  name: string;
  note: string;
  commit: string;
  commit_date: string;
  commit_subject: string;
  made_at: string;
  /** How the earlier version's packages were installed. */
  install: string;
  variants: Partial<Record<'sqlite' | 'postgres', FixtureVariant>>;
}

const say = (line: string) => process.stdout.write(`${line}\n`);
const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();

function run(command: string, args: string[], cwd: string): void {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status})`);
}

/** A hard-linked copy of a folder (`cp -al`): no bytes copied; npm replaces files rather than editing them. */
function linkTree(from: string, to: string): void {
  const result = spawnSync('cp', ['-al', from, to]);
  if (result.status !== 0) throw new Error(`cp -al failed: ${result.stderr?.toString() ?? ''}`);
}

/**
 * Installs the checkout's packages and says how: a hard-linked copy of this repository's
 * node_modules when the commit's lockfile matches it, else `npm ci`; when `npm ci` cannot run (a
 * lockfile out of step with its package.json, as at some commits), the hard-linked copy anyway,
 * with the differing packages recorded in the fixture.
 */
function install(source: string, commit: string): string {
  const difference = compareLockfile(git('show', `${commit}:package-lock.json`), root);
  const differs = [...difference.missing.map((p) => `${p} missing`), ...difference.changed];
  if (isCompatible(difference)) {
    say('lockfile matches the installed packages: hard-linked copy of node_modules');
    linkTree(path.join(root, 'node_modules'), path.join(source, 'node_modules'));
    return 'hard-linked copy of node_modules (lockfile matches)';
  }
  say(`lockfile differs from the installed packages (${differs.slice(0, 3).join('; ')}${differs.length > 3 ? '…' : ''}): npm ci`);
  const ci = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: source, stdio: ['ignore', 'inherit', 'pipe'], encoding: 'utf8' });
  if (ci.status === 0) return 'npm ci';
  const why = (ci.stderr ?? '').split('\n').find((line) => /npm error (?!code)\S/.test(line))?.replace('npm error ', '') ?? `exit ${ci.status}`;
  say(`npm ci failed (${why}): hard-linked copy of node_modules instead`);
  rmSync(path.join(source, 'node_modules'), { recursive: true, force: true });
  linkTree(path.join(root, 'node_modules'), path.join(source, 'node_modules'));
  return `hard-linked copy of node_modules: npm ci failed (${why}); differs from the lockfile: ${differs.join('; ')}`;
}

async function startOld(source: string, dataDir: string, env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [path.join(source, 'dist/server/cli.js'), '--port', '0', '--data-dir', dataDir], {
    cwd: source,
    env: { ...process.env, PARLEY_SECRET_STORE: 'file', PARLEY_LOG_LEVEL: 'warn', PARLEY_SIGNUP_RATE_LIMIT: '0', PARLEY_SIGNIN_RATE_LIMIT: '0', PARLEY_V1_RATE_LIMIT: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the earlier Parley did not start in 60 s:\n${out}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const found = /Parley listening on (http:\/\/\S+)/.exec(out);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`the earlier Parley exited (${code}) before listening:\n${out}`)));
  });
  return { url, child };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function appliedMigrations(connection: { filename: string } | string): Promise<string[]> {
  const db = typeof connection === 'string' ? knexFactory({ client: 'pg', connection }) : knexFactory({ client: 'sqlite3', connection, useNullAsDefault: true });
  try {
    if (typeof connection !== 'string') await db.raw('PRAGMA wal_checkpoint(TRUNCATE)');
    return (await db('knex_migrations').orderBy('id').select<{ name: string }[]>('name')).map((r) => r.name);
  } finally {
    await db.destroy();
  }
}

async function makeVariant(kind: 'sqlite' | 'postgres', source: string, work: string, target: string, cluster?: PostgresCluster): Promise<FixtureVariant> {
  const dataDir = path.join(work, `data-${kind}`);
  mkdirSync(dataDir, { recursive: true });
  const databaseUrl = cluster ? await createTestDatabase(cluster.baseUrl, `parley_fixture_${process.pid}`) : undefined;
  const { url, child } = await startOld(source, dataDir, databaseUrl ? { PARLEY_DATABASE_URL: databaseUrl } : {});
  let population: Population;
  let expected: Fingerprint;
  try {
    say(`${kind}: the earlier Parley listens on ${url}; populating`);
    population = await populate(url);
    expected = await fingerprint(url, population);
  } finally {
    await stop(child);
  }
  const migrations = await appliedMigrations(databaseUrl ?? { filename: path.join(dataDir, 'parley.db') });
  const extra: Record<string, Buffer> = {};
  if (databaseUrl) {
    const dump = spawnSync(path.join(postgresBinDir()!, 'pg_dump'), ['--no-owner', '--no-privileges', `--dbname=${databaseUrl}`], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (dump.status !== 0) throw new Error(`pg_dump failed: ${dump.stderr}`);
    extra['database.sql'] = Buffer.from(dump.stdout);
  }
  const files = KEPT.filter((entry) => !(databaseUrl && entry === 'parley.db')).flatMap((entry) => {
    const full = path.join(dataDir, entry);
    if (!existsSync(full)) return [];
    return statSync(full).isDirectory() ? listFiles(full, dataDir) : [entry];
  });
  const archive = `${kind}.zip`;
  await writeZip(path.join(target, archive), dataDir, files, extra);
  const size = statSync(path.join(target, archive)).size;
  say(`${kind}: ${files.length} files, ${migrations.length} migrations, ${(size / 1024).toFixed(0)} KB`);
  if (size > MAX_FIXTURE_BYTES) throw new Error(`${archive} is ${size} bytes, over the ${MAX_FIXTURE_BYTES} a committed fixture may weigh`);
  return { archive, migrations, population, expected };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { commit: { type: 'string' }, name: { type: 'string' }, note: { type: 'string' }, postgres: { type: 'boolean' }, out: { type: 'string' } },
  });
  if (!values.commit || !values.name || !/^[a-z0-9-]+$/.test(values.name)) {
    throw new Error('Usage: npm run make:upgrade-fixture -- --commit <rev> --name <round-N> [--note TEXT] [--postgres]');
  }
  const commit = git('rev-parse', `${values.commit}^{commit}`);
  const target = path.resolve(values.out ?? path.join(root, 'test/fixtures/upgrades'), values.name);
  const work = mkdtempSync(path.join(os.tmpdir(), 'parley-fixture-'));
  const source = path.join(work, 'src');
  let cluster: PostgresCluster | undefined;
  try {
    git('worktree', 'add', '--detach', source, commit);
    const installed = install(source, commit);
    run(process.execPath, ['scripts/build.mjs', '--server-only', '--quiet'], source);
    rmSync(target, { recursive: true, force: true });
    mkdirSync(target, { recursive: true });
    const fixture: FixtureFile = {
      name: values.name,
      note: values.note ?? '',
      commit,
      commit_date: git('show', '-s', '--format=%cI', commit),
      commit_subject: git('show', '-s', '--format=%s', commit),
      made_at: new Date().toISOString(),
      install: installed,
      variants: {},
    };
    fixture.variants.sqlite = await makeVariant('sqlite', source, work, target);
    if (values.postgres) {
      if (!readFileSync(path.join(source, 'server/platform/db/knex.ts'), 'utf8').includes('postgres')) throw new Error(`${commit} has no PostgreSQL support`);
      cluster = await startPostgresCluster();
      fixture.variants.postgres = await makeVariant('postgres', source, work, target, cluster);
    }
    writeFileSync(path.join(target, 'fixture.json'), `${JSON.stringify(fixture, null, 2)}\n`);
    say(`fixture written: ${path.relative(root, target)}`);
  } finally {
    cluster?.stop();
    spawnSync('git', ['worktree', 'remove', '--force', source], { cwd: root });
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`make-upgrade-fixture: ${(error as Error).message}\n`);
  process.exit(1);
});
