import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dependencyOrder } from '../../migrate-db/copy-database';
import { BootConfigError, readBootConfig } from '../env';
import { dialectOf, isPostgresUrl, openDatabase } from './knex';

describe('choosing the database', () => {
  it('stays on SQLite in the data dir unless a postgres:// URL is given', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-knex-'));
    const sqlite = openDatabase(dir);
    const pg = openDatabase({ dataDir: dir, databaseUrl: 'postgres://parley@127.0.0.1:1/parley' });
    try {
      expect(dialectOf(sqlite)).toBe('sqlite');
      expect(dialectOf(pg)).toBe('postgres');
      expect(isPostgresUrl('postgresql://h/db')).toBe(true);
      expect(isPostgresUrl('mysql://h/db')).toBe(false);
    } finally {
      await sqlite.destroy();
      await pg.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes PARLEY_SHARED_DIR only beside a PostgreSQL database, and the job lease length', () => {
    const boot = readBootConfig({ env: { PARLEY_DATABASE_URL: 'postgres://p@db/parley', PARLEY_SHARED_DIR: '/srv/parley-shared', PARLEY_JOB_LEASE_MS: '1500' } });
    expect(boot.sharedDir).toBe('/srv/parley-shared');
    expect(boot.jobLeaseMs).toBe(1500);
    expect(readBootConfig({ env: {} })).toMatchObject({ sharedDir: undefined, jobLeaseMs: 30_000 });
    expect(() => readBootConfig({ env: { PARLEY_SHARED_DIR: '/srv/parley-shared' } })).toThrow(/PARLEY_SHARED_DIR.*needs PARLEY_DATABASE_URL/);
    expect(() => readBootConfig({ env: { PARLEY_JOB_LEASE_MS: '10' } })).toThrow(BootConfigError);
  });

  it('reads PARLEY_DATABASE_URL and its pool size, and refuses a URL that is not PostgreSQL', () => {
    const boot = readBootConfig({ env: { PARLEY_DATABASE_URL: 'postgres://p@db/parley', PARLEY_DATABASE_POOL_SIZE: '4' } });
    expect(boot.databaseUrl).toBe('postgres://p@db/parley');
    expect(boot.databasePoolSize).toBe(4);
    expect(readBootConfig({ env: {} }).databaseUrl).toBeUndefined();
    expect(() => readBootConfig({ env: { PARLEY_DATABASE_URL: 'mysql://db/parley' } })).toThrow(BootConfigError);
    expect(() => readBootConfig({ env: { PARLEY_DATABASE_URL: 'mysql://db/parley' } })).toThrow(/PARLEY_DATABASE_URL/);
  });
});

describe('migrate-db table order', () => {
  it('puts every table after the tables it references, ignoring self-references', () => {
    const keys = [
      { table: 'chats', references: 'users', column: 'user_id', referencedColumn: 'id' },
      { table: 'chat_messages', references: 'chats', column: 'chat_id', referencedColumn: 'id' },
      { table: 'folders', references: 'folders', column: 'parent_id', referencedColumn: 'id' },
      { table: 'folders', references: 'users', column: 'user_id', referencedColumn: 'id' },
    ];
    const order = dependencyOrder(['chat_messages', 'folders', 'chats', 'users', 'config'], keys);
    expect(order.indexOf('users')).toBeLessThan(order.indexOf('chats'));
    expect(order.indexOf('chats')).toBeLessThan(order.indexOf('chat_messages'));
    expect(order.indexOf('users')).toBeLessThan(order.indexOf('folders'));
    expect(order).toHaveLength(5);
  });
});
