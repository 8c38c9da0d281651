import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { systemClock } from '../platform/clock';
import type { FilesRepo } from './files.repo';
import { createFilesService } from './files.service';

const root = mkdtempSync(path.join(os.tmpdir(), 'parley-files-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** No file has a row: every name in the folder is an orphan candidate. */
const noRows = { existing: async () => new Set<string>() } as unknown as FilesRepo;

/** An upload in progress: a `.part` file written a minute before this service started. */
function partialUpload(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'upload-in-progress.part');
  writeFileSync(file, 'half an upload');
  const minuteAgo = (Date.now() - 60_000) / 1000;
  utimesSync(file, minuteAgo, minuteAgo);
  return file;
}

describe('sweeping orphan uploads at start', () => {
  it('removes a partial upload an earlier run of this instance left behind', async () => {
    const dir = path.join(root, 'own');
    const file = partialUpload(dir);
    const files = createFilesService({ repo: noRows, dir, maxBytes: 1024, clock: systemClock, log: pino({ level: 'silent' }) });
    expect(await files.sweepOrphans()).toBe(1);
    expect(existsSync(file)).toBe(false);
  });

  it('leaves a partial upload alone in a folder other instances share (one of them may be writing it)', async () => {
    const dir = path.join(root, 'shared');
    const file = partialUpload(dir);
    const files = createFilesService({ repo: noRows, dir, maxBytes: 1024, shared: true, clock: systemClock, log: pino({ level: 'silent' }) });
    expect(await files.sweepOrphans()).toBe(0);
    expect(existsSync(file)).toBe(true);
  });
});
