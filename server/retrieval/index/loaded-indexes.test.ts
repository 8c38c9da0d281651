import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createLoadedIndexes } from './loaded-indexes';
import type { IndexChunkRow, RetrievalRepo } from '../retrieval.repo';

const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-indexes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The database side of one collection: its chunk rows, changed by the test as another instance would. */
function fakeRepo(rows: IndexChunkRow[]): RetrievalRepo {
  const repo: Pick<RetrievalRepo, 'languageOf' | 'fingerprint' | 'chunksAfter' | 'modelsOf'> = {
    languageOf: async () => 'english',
    fingerprint: async () => ({ count: rows.length, maxId: Math.max(0, ...rows.map((r) => r.id)), sumId: rows.reduce((sum, r) => sum + r.id, 0) }),
    chunksAfter: async (_collectionId, afterId, limit) => rows.filter((r) => r.id > afterId).slice(0, limit),
    modelsOf: async () => ['m'],
  };
  return repo as RetrievalRepo;
}

const row = (id: number, text: string): IndexChunkRow => ({ id, file_id: `f${id}`, text, embedding: null, model: 'm' });

describe('collection indexes in memory', () => {
  it('saves no snapshot while the database holds chunks the index has not seen, and saves once they agree', async () => {
    const rows = [row(1, 'otters hold hands'), row(2, 'kelp forests')];
    const indexes = createLoadedIndexes({ repo: fakeRepo(rows), dir, log: pino({ level: 'silent' }), model: async () => ({ model: 'm', dims: 0 }) });
    const index = await indexes.get('c1');
    expect(index.count).toBe(2);
    // Another instance stored a chunk this index was not told about yet.
    rows.push(row(3, 'lighthouse keepers'));
    indexes.changed('c1');
    await indexes.flush();
    expect(existsSync(indexes.fileOf('c1'))).toBe(false);
    // Told of it (its index dropped and read again), the index agrees with the database and is saved.
    indexes.forget('c1');
    expect((await indexes.get('c1')).count).toBe(3);
    await indexes.flush();
    expect(existsSync(indexes.fileOf('c1'))).toBe(true);
  });

  it('saves no snapshot when the database holds as many chunks as the index but other ones', async () => {
    const rows = [row(1, 'otters hold hands'), row(2, 'kelp forests')];
    const indexes = createLoadedIndexes({ repo: fakeRepo(rows), dir, log: pino({ level: 'silent' }), model: async () => ({ model: 'm', dims: 0 }) });
    expect((await indexes.get('c2')).count).toBe(2);
    // Another instance replaced a file: one chunk gone, another added, the count unchanged.
    rows.splice(1, 1, row(3, 'lighthouse keepers'));
    indexes.changed('c2');
    await indexes.flush();
    expect(existsSync(indexes.fileOf('c2'))).toBe(false);
  });
});
