import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS, type MigrationList } from '../../server/platform/db/migrations';
import type { UpgradeError } from '../../server/upgrades';
import { signupAdmin } from '../helpers/builders';
import { dumpDatabaseAt } from '../helpers/database-dump';
import { pgRows, postgresBinDir } from '../helpers/postgres';
import { postgresForThisFile } from '../helpers/postgres-per-file';
import { startTestServer, tempDataDir, upgradeRefusal } from '../helpers/server';

const NEWEST = MIGRATIONS.at(-1)![0].slice(0, 12);
const postgres = postgresForThisFile('parley_upgrade');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A PostgreSQL database written by "an older Parley" (the first `known` migrations) with an admin, and its data dir. */
async function olderDatabase(known: number): Promise<{ dataDir: string; url: string }> {
  const dataDir = tempDataDir('parley-pg-upgrade-');
  dirs.push(dataDir);
  const url = await postgres.database();
  const server = await startTestServer({ dataDir, envVars: { PARLEY_DATABASE_URL: url }, migrations: MIGRATIONS.slice(0, known) });
  try {
    await signupAdmin(server);
  } finally {
    await server.close();
  }
  return { dataDir, url };
}

async function start(dataDir: string, env: Record<string, string>, migrations?: MigrationList) {
  return startTestServer({ dataDir, envVars: env, migrations });
}

function refusal(dataDir: string, env: Record<string, string>, migrations?: MigrationList): Promise<UpgradeError> {
  return upgradeRefusal(start(dataDir, env, migrations));
}

const snapshotsIn = (dataDir: string) => (existsSync(path.join(dataDir, 'backups')) ? readdirSync(path.join(dataDir, 'backups')).filter((n) => n.startsWith('pre-')) : []);
const pgDump = () => path.join(postgresBinDir()!, 'pg_dump');

describe('database updates on PostgreSQL', () => {
  it('runs pg_dump before migrating a database that holds data: backups/pre-<from>-to-<to>-<date>.dump, 0600, restorable', async () => {
    const { dataDir, url } = await olderDatabase(MIGRATIONS.length - 1);
    const server = await start(dataDir, { PARLEY_DATABASE_URL: url, PARLEY_PG_DUMP: pgDump() });
    await server.close();
    const [name] = snapshotsIn(dataDir);
    expect(name).toMatch(new RegExp(`^pre-${MIGRATIONS.at(-2)![0].slice(0, 12)}-to-${NEWEST}-\\d{8}-\\d{6}\\.dump$`));
    const file = path.join(dataDir, 'backups', name!);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const listing = spawnSync(path.join(postgresBinDir()!, 'pg_restore'), ['--list', file], { encoding: 'utf8' });
    expect(listing.status).toBe(0);
    expect(listing.stdout).toMatch(/TABLE DATA public users/);
    // The dump is of the database before the update: knex_migrations without the newest migration.
    const sql = spawnSync(path.join(postgresBinDir()!, 'pg_restore'), ['--data-only', '--table=knex_migrations', '-f', '-', file], { encoding: 'utf8' });
    expect(sql.stdout).toContain(MIGRATIONS.at(-2)![0]);
    expect(sql.stdout).not.toContain(MIGRATIONS.at(-1)![0]);

    // What today's Parley leaves restores without an error with the command its messages name.
    const updated = path.join(dataDir, 'updated.dump');
    expect(spawnSync(pgDump(), ['--format=custom', '--no-owner', `--file=${updated}`, `--dbname=${url}`]).status).toBe(0);
    const target = await postgres.database();
    const restored = spawnSync(path.join(postgresBinDir()!, 'pg_restore'), ['--clean', '--if-exists', '--no-owner', '-d', target, updated], { encoding: 'utf8' });
    expect(restored.stderr).toBe('');
    expect(restored.status).toBe(0);
  });

  it('without pg_dump refuses to migrate until PARLEY_CONFIRM_BACKUP names this update, and changes nothing meanwhile', async () => {
    const { dataDir, url } = await olderDatabase(MIGRATIONS.length - 1);
    const before = await dumpDatabaseAt(dataDir, url);
    // The cluster trusts local connections, so a password in the URL is accepted and must never be shown.
    const withPassword = url.replace('postgres://postgres@', 'postgres://postgres:s3cret-pw@');
    const missing = { PARLEY_DATABASE_URL: withPassword, PARLEY_PG_DUMP: path.join(dataDir, 'no-such-pg_dump') };
    const error = await refusal(dataDir, missing);
    expect(error.code).toBe('BACKUP_REQUIRED');
    expect(error.message).toContain('no-such-pg_dump was not found');
    expect(error.message).toContain(`PARLEY_CONFIRM_BACKUP=${NEWEST}`);
    expect(error.message).not.toContain('s3cret-pw');
    expect(error.message).toContain(`pg_dump -Fc -d "${url}"`);
    expect(await dumpDatabaseAt(dataDir, url)).toEqual(before);

    // A standing "yes" does not confirm the backup of a later update.
    const wrong = await refusal(dataDir, { ...missing, PARLEY_CONFIRM_BACKUP: '1' });
    expect(wrong.message).toContain(`PARLEY_CONFIRM_BACKUP is '1', not this update's '${NEWEST}'`);
    expect(await dumpDatabaseAt(dataDir, url)).toEqual(before);

    const server = await start(dataDir, { ...missing, PARLEY_CONFIRM_BACKUP: NEWEST });
    try {
      expect((await server.anon.post('/api/v1/auths/signin', { email: 'admin@example.com', password: 'admin-password' })).status).toBe(200);
    } finally {
      await server.close();
    }
    expect(snapshotsIn(dataDir)).toEqual([]);
  });

  it('a failing migration leaves the database as it was and names the pg_restore command', async () => {
    const { dataDir, url } = await olderDatabase(MIGRATIONS.length - 1);
    const before = await dumpDatabaseAt(dataDir, url);
    const failing: MigrationList = [
      ...MIGRATIONS,
      [
        '209901010000-breaks-halfway',
        {
          up: async (knex) => {
            await knex.schema.createTable('half_done', (t) => t.increments('id'));
            await knex('users').update({ name: 'changed by a failed update' });
            throw new Error('out of disk');
          },
          down: async () => undefined,
        },
      ],
    ];
    const error = await refusal(dataDir, { PARLEY_DATABASE_URL: url, PARLEY_PG_DUMP: pgDump() }, failing);
    expect(error.code).toBe('MIGRATION_FAILED');
    expect(error.message).toContain('migration 209901010000-breaks-halfway failed: out of disk');
    expect(error.message).toMatch(/pg_restore --clean --if-exists --no-owner -d "postgres:\/\/postgres@127\.0\.0\.1:\d+\/parley_upgrade_\d+_\d+" ".*\.dump"/);
    expect(await dumpDatabaseAt(dataDir, url)).toEqual(before);
  });

  it('refuses a database a newer Parley wrote', async () => {
    const { dataDir, url } = await olderDatabase(MIGRATIONS.length);
    const server = await start(dataDir, { PARLEY_DATABASE_URL: url });
    await server.close();
    await pgRows(url, "INSERT INTO knex_migrations (name, batch, migration_time) VALUES ('209912312359-future-change', 99, now())");
    await pgRows(url, "INSERT INTO app_versions (version, schema, opened_at) VALUES ('9.0.0', '209912312359-future-change', 1)");
    const error = await refusal(dataDir, { PARLEY_DATABASE_URL: url });
    expect(error.code).toBe('DATA_FROM_NEWER_VERSION');
    expect(error.message).toContain('This PostgreSQL database was written by Parley 9.0.0');
  });
});
