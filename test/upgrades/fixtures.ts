/**
 * The committed upgrade fixtures (test/fixtures/upgrades/<name>/): data dirs earlier Parley
 * versions left behind, made by scripts/make-upgrade-fixture.ts, and how a test opens one.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { extractZip } from '../../server/backup/archive';
import { startServer, type RunningServer } from '../../server/start';
import { expect } from 'vitest';
import { CHAT_SEARCH_EXPECTED, chatSearchTitles, fingerprint, type Fingerprint } from './fingerprint';
import type { Population } from './populate';

export const FIXTURES_DIR = path.resolve(import.meta.dirname, '../fixtures/upgrades');

export interface FixtureVariant {
  archive: string;
  migrations: string[];
  population: Population;
  expected: Fingerprint;
}

export interface Fixture {
  name: string;
  note: string;
  commit: string;
  commit_date: string;
  commit_subject: string;
  variants: Partial<Record<'sqlite' | 'postgres', FixtureVariant>>;
}

/** Every fixture, oldest commit first. */
export function loadFixtures(): Fixture[] {
  return readdirSync(FIXTURES_DIR)
    .filter((name) => existsSync(path.join(FIXTURES_DIR, name, 'fixture.json')))
    .map((name) => JSON.parse(readFileSync(path.join(FIXTURES_DIR, name, 'fixture.json'), 'utf8')) as Fixture)
    .sort((a, b) => a.commit_date.localeCompare(b.commit_date));
}

/** Unpacks a fixture's data dir into a new temp folder (the caller removes it). */
export async function unpack(fixture: Fixture, variant: FixtureVariant): Promise<string> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `parley-upgrade-${fixture.name}-`));
  try {
    await extractZip(path.join(FIXTURES_DIR, fixture.name, variant.archive), dataDir, { maxEntries: 10_000, maxTotalBytes: 200 * 1024 * 1024 });
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return dataDir;
}

/** Today's Parley on an unpacked data dir, as a person starts it: the file secret store it was made with, its own migrations. */
export function openWithToday(dataDir: string, env: Record<string, string> = {}): Promise<RunningServer> {
  return startServer({
    host: '127.0.0.1',
    port: 0,
    dataDir,
    logLevel: 'warn',
    logToStdout: false,
    rendererDir: path.join(dataDir, 'no-renderer'),
    env: { PARLEY_SECRET_STORE: 'file', PARLEY_SIGNIN_RATE_LIMIT: '0', ...env },
  });
}

/** Today's Parley at `url` shows the data as the earlier version did: values first (a difference reads as what changed), then the recorded counts and checksums; and chat search finds the old messages. */
export async function expectSameData(url: string, variant: FixtureVariant): Promise<void> {
  const found = await fingerprint(url, variant.population);
  expect(found.values).toEqual(variant.expected.values);
  expect(found.counts).toEqual(variant.expected.counts);
  expect(found.checksums).toEqual(variant.expected.checksums);
  expect(await chatSearchTitles(url, variant.population)).toEqual(CHAT_SEARCH_EXPECTED);
}
