import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import type * as FsPromises from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { CollectionIndex } from './collection-index';
import { offlineEmbed, OFFLINE_DIMS } from '../embedding/offline-embedder';
import { writeSnapshot } from './snapshot';
import { STALE_SNAPSHOT_TEMP_MS, sweepSnapshotTemps } from './snapshot-temps';

/** While set, a snapshot write "crashes" just before its rename: the temp file stays, as after a killed process. */
const crash = vi.hoisted(() => ({ on: false }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof FsPromises>();
  return {
    ...fs,
    rename: (...args: Parameters<typeof fs.rename>) => (crash.on ? new Promise<never>(() => undefined) : fs.rename(...args)),
  };
});

const root = mkdtempSync(path.join(os.tmpdir(), 'parley-snapshot-temps-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const log = pino({ level: 'silent' });

/** Starts a snapshot write of a small index that never finishes (its process died mid-way). */
async function crashedWrite(file: string): Promise<void> {
  const index = CollectionIndex.empty(OFFLINE_DIMS, 'm');
  index.add([{ id: 1, fileId: 'a', text: 'sea otters hold hands', vector: offlineEmbed('sea otters hold hands') }]);
  crash.on = true;
  void writeSnapshot(file, index, { count: 1, maxId: 1, sumId: 1, model: 'm', language: index.language });
  const dir = path.dirname(file);
  for (let i = 0; i < 200 && !readdirSync(dir).some((n) => n.endsWith('.tmp')); i += 1) await new Promise((r) => setTimeout(r, 10));
  // The write reached its rename (the file is whole and closed), which never happens.
  await new Promise((r) => setTimeout(r, 100));
  crash.on = false;
}

describe('sweeping temp snapshot files at start', () => {
  it('removes what a crashed snapshot write left once it is old, and keeps snapshots, young temp files and other files', async () => {
    const dir = path.join(root, 'indexes');
    mkdirSync(dir);
    await crashedWrite(path.join(dir, 'base-1.idx'));
    const [leftover] = readdirSync(dir).filter((n) => n.endsWith('.tmp'));
    expect(leftover).toMatch(/^base-1\.idx\./);
    writeFileSync(path.join(dir, 'base-2.idx'), 'a snapshot');
    writeFileSync(path.join(dir, 'notes.tmp'), 'not ours');
    writeFileSync(path.join(dir, 'base-3.idx.4242-0-0123456789ab.tmp'), 'another instance is writing this right now');
    const old = (Date.now() - STALE_SNAPSHOT_TEMP_MS - 60_000) / 1000;
    utimesSync(path.join(dir, leftover!), old, old);
    utimesSync(path.join(dir, 'notes.tmp'), old, old);
    const clock = { nowMs: () => Date.now(), now: () => Math.floor(Date.now() / 1000) };

    expect(await sweepSnapshotTemps(dir, clock, log)).toBe(1);
    expect(readdirSync(dir).sort()).toEqual(['base-2.idx', 'base-3.idx.4242-0-0123456789ab.tmp', 'notes.tmp']);

    // Later, the other instance's write has stalled too (it died): the next start removes it.
    const later = { nowMs: () => Date.now() + STALE_SNAPSHOT_TEMP_MS + 1, now: () => 0 };
    expect(await sweepSnapshotTemps(dir, later, log)).toBe(1);
    expect(readdirSync(dir).sort()).toEqual(['base-2.idx', 'notes.tmp']);
  });

  it('does nothing when no index was ever saved', async () => {
    expect(await sweepSnapshotTemps(path.join(root, 'missing'), { nowMs: () => Date.now(), now: () => 0 }, log)).toBe(0);
  });
});
