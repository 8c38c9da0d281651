import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Clock } from '../../platform/clock';
import type { Logger } from '../../platform/log';
import { SNAPSHOT_TEMP_NAME } from './snapshot';

/**
 * A temp snapshot untouched for this long is a crashed write's (ms). A live write touches its
 * file with every part it writes and renames it right after the last, so even a large snapshot
 * on a slow shared folder is far younger; another instance's write in progress is left alone.
 */
export const STALE_SNAPSHOT_TEMP_MS = 15 * 60_000;

/**
 * Removes temp snapshot files a crashed or killed write left in `dir` (the indexes folder), once
 * they are older than {@link STALE_SNAPSHOT_TEMP_MS}. Run at start; answers how many it removed.
 */
export async function sweepSnapshotTemps(dir: string, clock: Clock, log: Logger): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let removed = 0;
  for (const name of names) {
    if (!SNAPSHOT_TEMP_NAME.test(name)) continue;
    const file = path.join(dir, name);
    try {
      const { mtimeMs } = await stat(file);
      if (clock.nowMs() - mtimeMs < STALE_SNAPSHOT_TEMP_MS) continue;
      await rm(file, { force: true });
      removed += 1;
    } catch (error) {
      // Renamed or removed meanwhile (its write finished, or another instance swept it).
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  if (removed > 0) log.info({ dir, files: removed }, 'temp snapshot files left by interrupted writes were removed');
  return removed;
}
