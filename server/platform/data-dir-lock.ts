import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { StartRefused } from './start-refused';

/** The lock file a running service keeps in its data dir. */
export const LOCK_FILE = 'parley.lock';
/** How often the holder touches the lock file (its "live" signal). */
const HEARTBEAT_MS = 10_000;
/** A lock not touched for this long belongs to a process that is gone (or a reused pid). */
const STALE_MS = 60_000;

/** Who holds a data dir. */
export interface LockHolder {
  pid: number;
  host: string;
  startedAt: number;
  url?: string;
}

interface LockRecord extends LockHolder {
  token: string;
}

/** Thrown when another live Parley process holds the data dir. */
export class DataDirInUseError extends StartRefused {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(`${dataDir} is in use by a running Parley (pid ${holder.pid}${holder.url ? `, ${holder.url}` : ''}); quit it first`);
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readRecord(file: string): { record: LockRecord; touchedAt: number } | undefined {
  try {
    const record = JSON.parse(readFileSync(file, 'utf8')) as LockRecord;
    if (!Number.isInteger(record.pid) || typeof record.token !== 'string') return undefined;
    return { record, touchedAt: statSync(file).mtimeMs };
  } catch {
    return undefined;
  }
}

/**
 * The live process holding `dataDir`, if any: the lock file names a pid that is alive on this
 * machine and was touched recently (a crashed service leaves a lock nobody touches; a reused
 * pid does not touch it either). A lock from another machine (shared folder) counts while fresh.
 */
export function dataDirHolder(dataDir: string, now: number = Date.now()): LockHolder | undefined {
  const found = readRecord(path.join(dataDir, LOCK_FILE));
  if (!found) return undefined;
  const fresh = now - found.touchedAt < STALE_MS;
  const alive = found.record.host === os.hostname() ? pidAlive(found.record.pid) : true;
  if (!fresh || !alive) return undefined;
  const { token: _token, ...holder } = found.record;
  return holder;
}

/** A held data dir lock. */
export interface DataDirLock {
  /** Records the service's address in the lock (shown to whoever is refused). */
  setUrl(url: string): void;
  release(): void;
}

/**
 * Takes the data dir for this process: refuses when another live process holds it, takes over
 * a stale lock, and touches the file every 10 s until released.
 */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  const file = path.join(dataDir, LOCK_FILE);
  const holder = dataDirHolder(dataDir);
  if (holder && holder.pid !== process.pid) throw new DataDirInUseError(dataDir, holder);
  const record: LockRecord = { pid: process.pid, host: os.hostname(), startedAt: Date.now(), token: randomUUID() };
  const write = () => writeFileSync(file, JSON.stringify(record), { mode: 0o600 });
  write();
  const ours = () => readRecord(file)?.record.token === record.token;
  const heartbeat = setInterval(() => {
    if (!ours()) return;
    const at = new Date();
    try {
      utimesSync(file, at, at);
    } catch {
      // the folder went away (restored elsewhere, deleted): nothing to keep alive
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();
  return {
    setUrl(url) {
      record.url = url;
      if (ours()) write();
    },
    release() {
      clearInterval(heartbeat);
      if (ours()) rmSync(file, { force: true });
    },
  };
}
