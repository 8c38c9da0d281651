import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_RETRIEVAL_CONFIG } from '../../contracts/retrieval';
import type { PrepareJob } from './prepare';
import { createPrepareWorker } from './prepare-worker';

const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-prepare-worker-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function job(name: string, mime: string, content: string): PrepareJob {
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return { file: { path: file, mime, filename: name }, settings: DEFAULT_RETRIEVAL_CONFIG, embedOffline: false, language: 'english' };
}

describe('the ingestion worker under its limits', () => {
  const log = pino({ level: 'silent' });

  it('refuses the one file of a batch that outgrows its memory, with the reason, and prepares the others', async () => {
    const worker = createPrepareWorker(log, { memoryMb: 64, msPerFile: 120_000 });
    try {
      // Millions of small objects: far more heap than 64 MB once parsed and flattened.
      const heavy = job('heavy.json', 'application/json', `[${Array.from({ length: 1_500_000 }, (_, i) => `{"k":${i}}`).join(',')}]`);
      const light = job('light.txt', 'text/plain', 'The spare key hangs behind the blue door.');
      const outcomes = await worker.run([light, heavy, light]);
      expect(outcomes.map((o) => o.ok)).toEqual([true, false, true]);
      expect(outcomes[1]).toMatchObject({ ok: false, reason: true, error: expect.stringMatching(/needs more memory than indexing allows \(64 MB\)/) });
      // The worker was started again: the next request is answered.
      expect((await worker.run([light]))[0]!.ok).toBe(true);
    } finally {
      await worker.stop();
    }
  }, 120_000);

  it('stops a file that takes longer than allowed and refuses it with the reason', async () => {
    const worker = createPrepareWorker(log, { memoryMb: 1024, msPerFile: 1 });
    try {
      const [outcome] = await worker.run([job('slow.txt', 'text/plain', 'Some text.')]);
      expect(outcome).toMatchObject({ ok: false, reason: true, error: expect.stringMatching(/takes longer than indexing allows/) });
    } finally {
      await worker.stop();
    }
  });
});
