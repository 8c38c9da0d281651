import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirInUseError, dataDirHolder, LOCK_FILE } from './data-dir-lock';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-lock-'));
  dirs.push(dir);
  return dir;
}
function writeLock(dir: string, pid: number): void {
  writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid, host: os.hostname(), startedAt: Date.now(), token: 'x', url: 'http://127.0.0.1:1' }));
}

describe('data dir lock', () => {
  it('names the holder while held and frees the folder on release', () => {
    const dir = tempDir();
    const lock = acquireDataDirLock(dir);
    lock.setUrl('http://127.0.0.1:4321');
    expect(dataDirHolder(dir)).toMatchObject({ pid: process.pid, url: 'http://127.0.0.1:4321' });
    lock.release();
    expect(dataDirHolder(dir)).toBeUndefined();
    expect(existsSync(path.join(dir, LOCK_FILE))).toBe(false);
  });

  it('refuses a folder another live process holds', async () => {
    const dir = tempDir();
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      writeLock(dir, other.pid as number);
      expect(() => acquireDataDirLock(dir)).toThrow(DataDirInUseError);
      expect(() => acquireDataDirLock(dir)).toThrow(/in use by a running Parley \(pid \d+, http:\/\/127\.0\.0\.1:1\)/);
    } finally {
      other.kill();
    }
  });

  it('takes over a lock left by a process that is gone (kill -9)', async () => {
    const dir = tempDir();
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => gone.once('exit', resolve));
    writeLock(dir, gone.pid as number);
    expect(dataDirHolder(dir)).toBeUndefined();
    acquireDataDirLock(dir).release();
  });

  it('does not trust a live pid whose lock nobody touched for minutes (a reused pid)', () => {
    const dir = tempDir();
    writeLock(dir, process.ppid);
    const old = new Date(Date.now() - 5 * 60_000);
    utimesSync(path.join(dir, LOCK_FILE), old, old);
    expect(dataDirHolder(dir)).toBeUndefined();
  });

  it('ignores an unreadable lock file', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, LOCK_FILE), 'not json');
    expect(dataDirHolder(dir)).toBeUndefined();
  });
});
