import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { restoreBackup } from '../../server/backup';
import { appVersion } from '../../server/platform/app-version';
import { openDatabase } from '../../server/platform/db/knex';
import { MIGRATIONS, type MigrationList } from '../../server/platform/db/migrations';
import { startServer } from '../../server/start';
import type { UpgradeError } from '../../server/upgrades';
import { signupAdmin } from '../helpers/builders';
import { manualClock } from '../helpers/clock';
import { dumpDatabaseAt } from '../helpers/database-dump';
import { startTestServer, tempDataDir, upgradeRefusal, type TestServer } from '../helpers/server';

const root = path.resolve(import.meta.dirname, '../..');
const NEWEST = MIGRATIONS.at(-1)![0].slice(0, 12);
const cleanup: string[] = [];
afterEach(() => {
  for (const dir of cleanup.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A data dir written by "an older Parley": one that knew only the first `known` migrations, with an admin and a chat. */
async function olderDataDir(known: number): Promise<{ dataDir: string; token: string }> {
  const dataDir = tempDataDir('parley-upgrade-');
  cleanup.push(dataDir);
  const server = await startTestServer({ dataDir, sqlite: true, migrations: MIGRATIONS.slice(0, known) });
  try {
    const admin = await signupAdmin(server);
    const chat = await server.as(admin.token).post('/api/v1/chats/new', { title: 'Before the update' });
    expect(chat.status).toBe(200);
    return { dataDir, token: admin.token };
  } finally {
    await server.close();
  }
}

async function startOn(dataDir: string, options: { migrations?: MigrationList; clock?: ReturnType<typeof manualClock> } = {}): Promise<TestServer> {
  return startTestServer({ dataDir, sqlite: true, ...options });
}

/** What starting refused with (fails the test if it started). */
function refusal(dataDir: string, migrations?: MigrationList): Promise<UpgradeError> {
  return upgradeRefusal(startServer({ host: '127.0.0.1', port: 0, dataDir, logLevel: 'silent', logToStdout: false, migrations, env: {} }));
}

function zipEntries(file: string): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(out));
      zip.readEntry();
    });
  });
}

const snapshotsIn = (dataDir: string) => (existsSync(path.join(dataDir, 'backups')) ? readdirSync(path.join(dataDir, 'backups')).filter((n) => n.startsWith('pre-')).sort() : []);

describe('before migrating a database that holds data, Parley snapshots it', () => {
  it('writes backups/pre-<from>-to-<to>-<date>.zip (0600 in a 0700 folder) holding the database as it was, and none for a new or current one', async () => {
    const { dataDir } = await olderDataDir(MIGRATIONS.length - 2);
    const from = MIGRATIONS.at(-3)![0].slice(0, 12);
    const server = await startOn(dataDir);
    await server.close();
    const [name, ...more] = snapshotsIn(dataDir);
    expect(more).toEqual([]);
    expect(name).toMatch(new RegExp(`^pre-${from}-to-${NEWEST}-\\d{8}-\\d{6}\\.zip$`));
    const file = path.join(dataDir, 'backups', name!);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(dataDir, 'backups')).mode & 0o777).toBe(0o700);
    const entries = await zipEntries(file);
    const manifest = JSON.parse(entries.get('manifest.json')!.toString('utf8')) as { migrations: string[] };
    expect(manifest.migrations).toEqual(MIGRATIONS.slice(0, -2).map(([n]) => n));
    expect(entries.has('parley.db')).toBe(true);

    // Restored, it is the database before the update (its chat, and not the update's tables).
    const restored = tempDataDir('parley-restored-');
    cleanup.push(restored);
    rmSync(restored, { recursive: true });
    await restoreBackup({ archive: file, dataDir: restored });
    const db = openDatabase(restored);
    try {
      expect((await db('chats').select('title')).map((c) => c.title)).toEqual(['Before the update']);
      expect(await db.schema.hasTable('app_versions')).toBe(false);
    } finally {
      await db.destroy();
    }

    // A start with nothing to migrate takes no snapshot.
    await (await startOn(dataDir)).close();
    expect(snapshotsIn(dataDir)).toEqual([name]);

    // A brand-new data dir has nothing to keep.
    const fresh = await startTestServer({ sqlite: true, keepDataDir: true });
    cleanup.push(fresh.dataDir);
    await fresh.close();
    expect(snapshotsIn(fresh.dataDir)).toEqual([]);
  });

  it('keeps the last three snapshots and lists them with the admin backups', async () => {
    const { dataDir } = await olderDataDir(MIGRATIONS.length - 4);
    const clock = manualClock(Date.UTC(2026, 10, 28, 9, 0, 0));
    for (let known = MIGRATIONS.length - 3; known <= MIGRATIONS.length; known += 1) {
      clock.advance(60);
      await (await startOn(dataDir, { migrations: MIGRATIONS.slice(0, known), clock })).close();
    }
    const kept = snapshotsIn(dataDir);
    expect(kept).toHaveLength(3);
    // The oldest (from the first update) is gone; the three newest stay.
    expect(kept.map((n) => n.slice(-19, -4))).toEqual(['20261128-090200', '20261128-090300', '20261128-090400']);
    const server = await startOn(dataDir, { clock });
    try {
      const admin = await server.anon.post('/api/v1/auths/signin', { email: 'admin@example.com', password: 'admin-password' });
      const listed = (await server.as(admin.body.token).get('/api/v1/backups')).body as Array<{ name: string }>;
      expect(listed.map((b) => b.name).sort()).toEqual(kept);
      const download = await fetch(`${server.url}/api/v1/backups/${kept[2]}/download`, { headers: { authorization: `Bearer ${admin.body.token}` } });
      expect(download.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('writes admin backups readable by this OS account only', async () => {
    const server = await startTestServer({ sqlite: true });
    try {
      const admin = await signupAdmin(server);
      const created = await server.as(admin.token).post('/api/v1/backups');
      expect(created.status).toBe(200);
      expect(statSync(path.join(server.dataDir, 'backups', created.body.name)).mode & 0o777).toBe(0o600);
      expect(statSync(path.join(server.dataDir, 'backups')).mode & 0o777).toBe(0o700);
    } finally {
      await server.close();
    }
  });
});

describe('migrations are atomic', () => {
  it('a failing migration leaves the database exactly as it was, and the error names it, the snapshot and the restore command', async () => {
    const { dataDir } = await olderDataDir(MIGRATIONS.length - 2);
    const before = await dumpDatabaseAt(dataDir);
    const failing: MigrationList = [
      ...MIGRATIONS,
      [
        '209901010000-breaks-halfway',
        {
          up: async (knex) => {
            // Schema and data changes first, then the failure: all of it must be undone.
            await knex.schema.createTable('half_done', (t) => t.increments('id'));
            await knex.schema.alterTable('chats', (t) => t.text('half_done_note').nullable());
            await knex('chats').update({ title: 'changed by a failed update' });
            await knex('users').del();
            throw new Error('disk quota exceeded while rewriting chats');
          },
          down: async () => undefined,
        },
      ],
    ];
    const error = await refusal(dataDir, failing);
    expect(error.code).toBe('MIGRATION_FAILED');
    expect(error.message).toContain('migration 209901010000-breaks-halfway failed: disk quota exceeded while rewriting chats');
    expect(error.message).toContain('Nothing was changed');
    const [snapshot] = snapshotsIn(dataDir);
    expect(error.snapshot).toBe(path.join(dataDir, 'backups', snapshot!));
    expect(error.message).toContain(`npm run restore -- "${error.snapshot}" --data-dir "${dataDir}" --force`);
    // Every table, its rows and the schema (the two earlier pending migrations included) are as before.
    expect(await dumpDatabaseAt(dataDir)).toEqual(before);

    // The same data dir starts with the real migrations, and the snapshot restores through the command's code path.
    const server = await startOn(dataDir);
    const signin = await server.anon.post('/api/v1/auths/signin', { email: 'admin@example.com', password: 'admin-password' });
    expect(signin.status).toBe(200);
    await server.close();
    const result = await restoreBackup({ archive: error.snapshot!, dataDir, force: true });
    cleanup.push(result.previous!);
    expect(await dumpDatabaseAt(dataDir)).toEqual(before);
  });
});

describe('a data dir written by a newer Parley', () => {
  /** Marks a data dir as opened by Parley 9.0.0 with a migration this version does not know. */
  async function fromTheFuture(dataDir: string): Promise<void> {
    const db = openDatabase(dataDir);
    try {
      await db('knex_migrations').insert({ name: '209912312359-future-change', batch: 99, migration_time: new Date() });
      await db('app_versions').insert({ version: '9.0.0', schema: '209912312359-future-change', opened_at: 1 });
    } finally {
      await db.destroy();
    }
  }

  it('is refused before anything is read or written, naming both versions', async () => {
    const { dataDir } = await olderDataDir(MIGRATIONS.length);
    await fromTheFuture(dataDir);
    const before = await dumpDatabaseAt(dataDir);
    const error = await refusal(dataDir);
    expect(error.code).toBe('DATA_FROM_NEWER_VERSION');
    expect(error.message).toContain('was written by Parley 9.0.0 (database version 209912312359)');
    expect(error.message).toContain(`this is Parley ${appVersion()} (database version ${NEWEST})`);
    expect(error.message).toContain('209912312359-future-change');
    expect(await dumpDatabaseAt(dataDir)).toEqual(before);
    expect(snapshotsIn(dataDir)).toEqual([]);
  });

  it('is refused by the CLI with the same message, and without a recorded version too', async () => {
    const { dataDir } = await olderDataDir(MIGRATIONS.length);
    const db = openDatabase(dataDir);
    try {
      // An update that recorded no version of its own (or one whose table this version cannot read).
      await db('knex_migrations').insert({ name: '209912312359-future-change', batch: 99, migration_time: new Date() });
    } finally {
      await db.destroy();
    }
    const run = spawnSync(process.execPath, [path.join(root, 'dist/server/cli.js'), '--port', '0', '--data-dir', dataDir], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, PARLEY_LOG_LEVEL: 'silent', PARLEY_SECRET_STORE: 'file' },
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`Parley could not start: The data folder ${dataDir} was written by a newer Parley (database version 209912312359)`);
    expect(run.stderr).toContain(`this is Parley ${appVersion()}`);
    expect(run.stderr).not.toContain('    at ');
  });

  it('records the version that opened it', async () => {
    const { dataDir } = await olderDataDir(MIGRATIONS.length);
    const db = openDatabase(dataDir);
    try {
      expect(await db('app_versions').select('version', 'schema')).toEqual([{ version: appVersion(), schema: MIGRATIONS.at(-1)![0] }]);
    } finally {
      await db.destroy();
    }
  });
});
