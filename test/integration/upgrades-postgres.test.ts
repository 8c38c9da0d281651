/**
 * The upgrade fixtures on PostgreSQL (see upgrades.test.ts, whose rule holds here too: every new
 * migration extends these tests). Two ways an office reaches today's Parley on PostgreSQL:
 *
 * - It ran an earlier Parley on PostgreSQL (possible since the third round): the fixture holds
 *   that version's database as plain `pg_dump` SQL (database.sql, written when the fixture was
 *   made, restored here with psql). Recording a dump, rather than deriving the database from the
 *   SQLite fixture, is the only way to test PostgreSQL's own migrations (its row-order columns,
 *   search indexes, change-notice triggers) on data an earlier version wrote itself; plain SQL
 *   restores into the same or any newer PostgreSQL.
 * - It ran on SQLite and moves with `npm run migrate-db` (every round, including those before
 *   PostgreSQL existed): the SQLite fixture is copied as migrate-db copies it, then opened.
 *
 * Either way the data must read as the earlier version showed it.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyDatabase } from '../../server/migrate-db/copy-database';
import { MIGRATIONS } from '../../server/platform/db/migrations';
import { pgRows, postgresBinDir } from '../helpers/postgres';
import { postgresForThisFile } from '../helpers/postgres-per-file';
import { expectSameData, loadFixtures, openWithToday, unpack, type FixtureVariant } from '../upgrades/fixtures';

const fixtures = loadFixtures();
const postgres = postgresForThisFile('parley_upgrades');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function expectSameDataOnPostgres(dataDir: string, url: string, variant: FixtureVariant): Promise<void> {
  const server = await openWithToday(dataDir, { PARLEY_DATABASE_URL: url, PARLEY_PG_DUMP: path.join(postgresBinDir()!, 'pg_dump') });
  try {
    await expectSameData(server.url, variant);
  } finally {
    await server.close();
  }
}

const withDump = fixtures.filter((f) => f.variants.postgres);

describe.each(withDump.map((f) => [f.name, f] as const))('a PostgreSQL database left by %s', (_name, fixture) => {
  it(`is updated by today's Parley (pg_dump snapshot first) and shows the same data (${fixture.commit.slice(0, 7)})`, async () => {
    const variant = fixture.variants.postgres!;
    const dataDir = await unpack(fixture, variant);
    dirs.push(dataDir);
    const url = await postgres.database();
    const restore = spawnSync(path.join(postgresBinDir()!, 'psql'), ['-q', '-d', url, '-f', path.join(dataDir, 'database.sql')], { encoding: 'utf8' });
    expect(restore.status).toBe(0);
    // Dumps from before 202611281201 cannot build the two chat search indexes (their function
    // named unaccent without its schema); everything else restores, and today's Parley rebuilds them.
    const errors = restore.stderr.split('\n').filter((line) => line.includes('ERROR:'));
    for (const line of errors) expect(line).toContain('text search dictionary "unaccent" does not exist');
    expect(errors.length).toBeLessThanOrEqual(2);
    await expectSameDataOnPostgres(dataDir, url, variant);
    const indexes = await pgRows<{ indexname: string }>(url, "SELECT indexname FROM pg_indexes WHERE indexname IN ('chat_messages_search', 'chats_search') ORDER BY 1");
    expect(indexes.map((r) => r.indexname)).toEqual(['chat_messages_search', 'chats_search']);
    const from = variant.migrations.at(-1)!.slice(0, 12);
    const snapshots = readdirSync(path.join(dataDir, 'backups')).filter((n) => n.startsWith('pre-'));
    expect(snapshots).toEqual([expect.stringMatching(new RegExp(`^pre-${from}-to-${MIGRATIONS.at(-1)![0].slice(0, 12)}-\\d{8}-\\d{6}\\.dump$`))]);
  });
});

describe.each(fixtures.map((f) => [f.name, f] as const))('a SQLite data dir left by %s, moved with migrate-db', (_name, fixture) => {
  it(`shows the same data on PostgreSQL (${fixture.commit.slice(0, 7)})`, async () => {
    const variant = fixture.variants.sqlite!;
    const dataDir = await unpack(fixture, variant);
    dirs.push(dataDir);
    const url = await postgres.database();
    await copyDatabase({ fromDataDir: dataDir, toUrl: url });
    await expectSameDataOnPostgres(dataDir, url, variant);
  });
});

it('has PostgreSQL dumps from at least one earlier round', () => {
  expect(withDump.length).toBeGreaterThanOrEqual(1);
});
