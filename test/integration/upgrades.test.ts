/**
 * Upgrades never lose data: data dirs left by earlier Parley versions (committed fixtures made by
 * `npm run make:upgrade-fixture`, one per earlier round of work) are opened by today's Parley,
 * and chats, messages, files, knowledge bases and their search results, users, groups, settings,
 * models and API keys come out as the earlier version showed them (counts and checksums, see
 * test/upgrades/fingerprint.ts). The same on PostgreSQL: upgrades-postgres.test.ts.
 *
 * EVERY NEW MIGRATION MUST EXTEND THIS TEST. Adding one to server/platform/db/migrations fails
 * "every migration is covered" below until it is entered in COVERED with what it changes and how
 * this test sees it. A migration that moves or rewrites data also extends the population
 * (test/upgrades/populate.ts) with data it touches and the fingerprint with how a person would
 * see it, and a new fixture is made from the last commit before it:
 *   npm run make:upgrade-fixture -- --commit <rev> --name round-N --postgres
 * (see README, "Upgrades").
 */
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/platform/db/knex';
import { MIGRATIONS } from '../../server/platform/db/migrations';
import { appVersion } from '../../server/platform/app-version';
import { expectSameData, loadFixtures, openWithToday, unpack } from '../upgrades/fixtures';

/**
 * Each migration and how the upgrade fixtures cover it. "schema" ones add tables, columns,
 * indexes or triggers only: every fixture older than them proves they apply to a filled database
 * and lose nothing. The others move data, and name what the fingerprint checks of it.
 */
export const COVERED: Record<string, string> = {
  '202611220001-create-users': 'schema (round-1 fixture and later were made on it): users',
  '202611220002-create-auths': 'schema: passwords (every fixture signs its users in)',
  '202611220003-create-api-keys': 'schema: api_keys',
  '202611220004-create-config': 'schema: settings',
  '202611220005-create-groups': 'schema: groups',
  '202611220006-create-revoked-tokens': 'schema',
  '202611220301-create-chats': 'schema: chats and messages',
  '202611220302-create-files': 'schema: files',
  '202611220201-create-models': 'schema: models',
  '202611220501-create-tools': 'schema',
  '202611220401-create-knowledge': 'schema: knowledge bases, chunks (search)',
  '202611220601-create-knowledge-graph': 'schema',
  '202611220602-graph-state-sizes': 'schema',
  '202611231500-create-issued-tokens': 'schema; the round-1 tokens in the fixture keep working (tokens issued before it)',
  '202611231600-create-message-ratings': 'schema',
  '202611231700-chat-organizing': 'schema plus the chat search index of existing messages: round-1 chats and messages',
  '202611232100-create-builtin-models': 'schema',
  '202611251401-collection-languages': 'schema with a default language for existing bases: round-1 and round-2 knowledge search',
  '202611251600-message-tool-steps': 'schema: existing messages read the same (round-1, round-2)',
  '202611251900-create-api-usage': 'schema',
  '202611252001-index-streaming-answers': 'schema (index)',
  '202611260101-postgres-row-order': 'PostgreSQL only: row order of existing rows (round-3 postgres fixture and migrate-db of older ones)',
  '202611260102-postgres-chat-search': 'PostgreSQL only: search columns of existing messages (migrate-db of round-1/2)',
  '202611260601-postgres-table-change-notices': 'PostgreSQL only: triggers',
  '202611260602-postgres-realtime-attachments': 'PostgreSQL only: triggers',
  '202611270101-create-jobs': 'schema',
  '202611270102-postgres-collection-change-notices': 'PostgreSQL only: triggers',
  '202611270301-chat-message-chats': 'SQLite: fills the message → chat map for existing messages: round-1..3 chats and messages',
  '202611270701-job-progress': 'schema (column)',
  '202611281201-postgres-search-qualified-names':
    'PostgreSQL only: chat search function names its schema; indexes an older dump could not restore are rebuilt (round-3/4 postgres dumps, then chat search)',
  '202611281301-create-notes': 'schema',
  '202611281302-create-memories': 'schema',
  '202611281303-postgres-notes-memories-change-notices': 'PostgreSQL only: triggers',
  '202611282001-create-channels': 'schema',
  '202611282101-create-app-versions': 'schema; records the version that opened the data (checked below)',
  '202611290101-prompts-per-owner':
    'rebuilds prompts keyed by (owner, command), rows copied as they are: the fixtures hold no prompts, so test/integration/prompts-per-owner.test.ts migrates a database with prompts from the migration before',
};

const fixtures = loadFixtures();
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('upgrade fixtures', () => {
  it('every migration is covered (a new migration extends this test: see the comment at the top)', () => {
    expect(Object.keys(COVERED)).toEqual(MIGRATIONS.map(([name]) => name));
  });

  it('span the history: at least three earlier rounds, from the oldest data dir with the current layout', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(3);
    // The first round's data dir (parley.db, uploads/, indexes/, the file secret store) is today's layout.
    expect(fixtures[0]!.variants.sqlite!.migrations).toEqual(MIGRATIONS.slice(0, 13).map(([name]) => name));
    expect(fixtures.filter((f) => f.variants.postgres).length).toBeGreaterThanOrEqual(1);
  });
});

describe.each(fixtures.map((f) => [f.name, f] as const))('a data dir left by %s', (_name, fixture) => {
  const variant = fixture.variants.sqlite!;

  it(`opens with today's Parley and shows the same data (${fixture.commit.slice(0, 7)}: ${fixture.note})`, async () => {
    const dataDir = await unpack(fixture, variant);
    dirs.push(dataDir);
    const server = await openWithToday(dataDir);
    try {
      await expectSameData(server.url, variant);
    } finally {
      await server.close();
    }

    const db = openDatabase(dataDir);
    try {
      expect((await db('knex_migrations').orderBy('id').select('name')).map((r: { name: string }) => r.name)).toEqual([...variant.migrations, ...MIGRATIONS.map(([n]) => n).filter((n) => !variant.migrations.includes(n))]);
      expect(await db('app_versions').select('version', 'schema')).toEqual([{ version: appVersion(), schema: MIGRATIONS.at(-1)![0] }]);
    } finally {
      await db.destroy();
    }
    // The update snapshotted the data dir first.
    const from = variant.migrations.at(-1)!.slice(0, 12);
    const snapshots = readdirSync(path.join(dataDir, 'backups')).filter((n) => n.startsWith('pre-'));
    expect(snapshots).toEqual([expect.stringMatching(new RegExp(`^pre-${from}-to-${MIGRATIONS.at(-1)![0].slice(0, 12)}-\\d{8}-\\d{6}\\.zip$`))]);
  });
});
