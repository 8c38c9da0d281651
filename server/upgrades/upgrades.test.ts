import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../platform/db/migrations';
import { pruneSnapshots } from './pre-migration-snapshot';
import { restoreCommand, schemaStamp } from './upgrade-errors';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('pre-update snapshots', () => {
  it('keep the three newest by the time in their names, and leave admin backups alone', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-prune-'));
    dirs.push(dir);
    const names = [
      'pre-202611220602-to-202611250000-20261125-100000.zip',
      'pre-202611250000-to-202611270701-20261127-080000.zip',
      'pre-202611270701-to-202611280001-20261128-090000.zip',
      'pre-202611270701-to-202611280001-20261128-090000-1.zip',
      'pre-202611280001-to-202612010000-20261201-070000.dump',
      'parley-backup-20261120-101010.zip',
      'notes.txt',
    ];
    for (const name of names) writeFileSync(path.join(dir, name), 'x');
    expect(pruneSnapshots(dir).sort()).toEqual([names[0], names[1]]);
    expect(readdirSync(dir).sort()).toEqual([names[5], 'notes.txt', names[2], names[3], names[4]].sort());
  });
});

describe('messages of a database update', () => {
  it('call a database version by the date stamp of its newest migration', () => {
    expect(schemaStamp('202611270701-job-progress')).toBe('202611270701');
    expect(schemaStamp(undefined)).toBe('empty');
  });

  it('never show a PostgreSQL password in the restore command', () => {
    expect(restoreCommand('/d/backups/pre-a-to-b-20261128-090000.dump', { dataDir: '/d', databaseUrl: 'postgres://parley:hunter2@db:5432/parley' })).toBe(
      'pg_restore --clean --if-exists --no-owner -d "postgres://parley@db:5432/parley" "/d/backups/pre-a-to-b-20261128-090000.dump"',
    );
    expect(restoreCommand('/d/backups/x.zip', { dataDir: '/d' })).toBe('npm run restore -- "/d/backups/x.zip" --data-dir "/d" --force');
  });
});

describe('migrations', () => {
  it('all run inside the update transaction (none turns it off), so a failure undoes the whole update', () => {
    for (const [name, migration] of MIGRATIONS) {
      expect((migration as { config?: { transaction?: boolean } }).config?.transaction, name).not.toBe(false);
    }
  });

  it('are named YYYYMMDDHHmm-what-changes, each stamp once', () => {
    const stamps = MIGRATIONS.map(([name]) => {
      expect(name).toMatch(/^\d{12}-[a-z0-9-]+$/);
      return name.slice(0, 12);
    });
    expect(new Set(stamps).size).toBe(stamps.length);
  });
});
