import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { offlineEmbed, offlineEmbedTerms, OFFLINE_DIMS } from '../embedding/offline-embedder';
import { CollectionIndex, type IndexInput, type IndexQuery } from './collection-index';
import { readSnapshot, writeSnapshot } from './snapshot';
import { packTerms, unpackTerms } from '../analysis/packed-terms';
import { analyze } from '../analysis/text-analysis';

const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-snapshot-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const WORDS = ['otter', 'kelp', 'falcon', 'launch', 'tomato', 'watering', 'lighthouse', 'gull', 'island', 'café', 'naïve', 'Über', 'zebra', 'ångström', '日本', 'x1', 'code'];
const chunk = (id: number, fileId: string, text: string): IndexInput => ({ id, fileId, text, vector: offlineEmbed(text) });
const query = (text: string, mode: IndexQuery['mode'] = 'hybrid'): IndexQuery => ({ text, vector: offlineEmbed(text), mode, weight: 0.5, fusion: 'blend', limit: 50 });

/** Saves through Orama's save() to a real file and restores through load(), vectors read straight into the SIMD store. */
async function roundTrip(index: CollectionIndex, name: string): Promise<CollectionIndex> {
  const file = path.join(dir, name);
  const fingerprint = { count: index.count, maxId: 1, sumId: 1, model: index.model, language: index.language };
  await writeSnapshot(file, index, fingerprint);
  const restored = await readSnapshot(file, fingerprint, OFFLINE_DIMS);
  expect(restored).toBeDefined();
  return restored!;
}

describe('index snapshots', () => {
  it('restores an index that then grows and loses files exactly like one never saved', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 30 }),
        fc.array(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 0, max: 5 }),
        async (before, after, dropped) => {
          const fresh = CollectionIndex.empty(OFFLINE_DIMS, 'm');
          const saved = CollectionIndex.empty(OFFLINE_DIMS, 'm');
          const first = before.map((words, i) => chunk(i + 1, `f${i % 6}`, words.join(' ')));
          fresh.add(first);
          saved.add(first);
          const restored = await roundTrip(saved, 'prop.idx');
          const second = after.map((words, i) => chunk(100 + i, `g${i % 3}`, words.join(' ')));
          fresh.add(second);
          restored.add(second);
          for (const index of [fresh, restored]) index.removeFile(`f${dropped}`);
          expect(restored.count).toBe(fresh.count);
          for (const words of [...WORDS.map((w) => [w]), ['otter', 'kelp'], ['café', 'zebra', 'code']]) {
            for (const mode of ['text', 'hybrid'] as const) expect(restored.search(query(words.join(' '), mode))).toEqual(fresh.search(query(words.join(' '), mode)));
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it('refuses a stale, truncated or foreign file instead of restoring it', async () => {
    const index = CollectionIndex.empty(OFFLINE_DIMS, 'm');
    index.add([chunk(1, 'a', 'sea otters hold hands'), chunk(2, 'b', 'the lighthouse on gull island')]);
    const file = path.join(dir, 'checks.idx');
    const fingerprint = { count: 2, maxId: 2, sumId: 3, model: 'm', language: 'english' };
    await writeSnapshot(file, index, fingerprint);
    expect(await readSnapshot(file, fingerprint)).toBeDefined();
    expect(await readSnapshot(file, { ...fingerprint, maxId: 3 })).toBeUndefined();
    expect(await readSnapshot(file, { ...fingerprint, model: 'other' })).toBeUndefined();
    expect(await readSnapshot(file, fingerprint, 16)).toBeUndefined();
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.subarray(0, bytes.length - 10));
    expect(await readSnapshot(file, fingerprint)).toBeUndefined();
    writeFileSync(file, 'not an index at all');
    expect(await readSnapshot(file, fingerprint)).toBeUndefined();
    expect(await readSnapshot(path.join(dir, 'missing.idx'), fingerprint)).toBeUndefined();
  });

  it('stays whole when two instances save the same collection into a shared folder at once', async () => {
    const file = path.join(dir, 'shared.idx');
    const small = CollectionIndex.empty(OFFLINE_DIMS, 'm');
    small.add([chunk(1, 'f', 'otter kelp')]);
    const large = CollectionIndex.empty(OFFLINE_DIMS, 'm');
    large.add(Array.from({ length: 400 }, (_, i) => chunk(i + 1, `f${i % 5}`, `lighthouse gull island ${i}`)));
    const printOf = (index: CollectionIndex) => ({ count: index.count, maxId: index.count, sumId: 1, model: 'm', language: index.language });
    for (let round = 0; round < 5; round += 1) {
      await Promise.all([writeSnapshot(file, large, printOf(large)), writeSnapshot(file, small, printOf(small)), writeSnapshot(file, large, printOf(large))]);
      // Whichever rename came last, the file is that writer's whole snapshot (never a mix), and no temp file is left.
      const asLarge = await readSnapshot(file, printOf(large), OFFLINE_DIMS);
      const asSmall = await readSnapshot(file, printOf(small), OFFLINE_DIMS);
      expect(asLarge === undefined).not.toBe(asSmall === undefined);
      expect((asLarge ?? asSmall)!.count).toBe(asLarge ? 400 : 1);
      expect(readdirSync(dir).filter((n) => n.startsWith('shared.idx.'))).toEqual([]);
    }
  });
});

describe('analysed terms', () => {
  it('cross threads packed and come back as they went', () => {
    const lists = ['Sea otters hold hands while they sleep.', '', 'Über naïve café — 日本語', 'otters otters kelp'].map(analyze);
    expect(unpackTerms(packTerms(lists))).toEqual(lists);
  });

  it('give the same offline vector as the text they came from', () => {
    for (const text of ['Sea otters hold hands while they sleep.', 'a', 'the the the cat cat dog']) {
      expect(offlineEmbedTerms(analyze(text))).toEqual(offlineEmbed(text));
    }
  });
});
