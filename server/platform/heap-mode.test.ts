import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { applyHeapMode, capYoungGeneration } from './heap-mode';

const MB = 1024 * 1024;

describe('the heap mode', () => {
  it('keeps the heap’s growth to 40 % and caps the young generation by default, gives both back to V8 for fast, and sets nothing twice', () => {
    const setFlags = vi.fn();
    applyHeapMode('small', setFlags);
    applyHeapMode('small', setFlags);
    expect(setFlags.mock.calls[0]).toEqual(['--heap-growing-percent=40']);
    expect(setFlags.mock.calls.slice(1).every(([flag]) => /^--semi-space-growth-factor=[12]$/.test(flag as string))).toBe(true);
    setFlags.mockClear();
    applyHeapMode('fast', setFlags);
    expect(setFlags.mock.calls).toEqual([['--heap-growing-percent=0'], ['--semi-space-growth-factor=2']]);
  });

  it('lets the young generation grow as V8 would below the cap, and stops its growth once it reaches the cap', () => {
    const setFlags = vi.fn();
    let size = 2 * MB;
    const cap = capYoungGeneration(8 * MB, setFlags, () => size);
    try {
      expect(setFlags.mock.calls).toEqual([['--semi-space-growth-factor=2']]);
      size = 4 * MB;
      cap.check();
      expect(setFlags).toHaveBeenCalledTimes(1);
      size = 8 * MB;
      cap.check();
      expect(setFlags).toHaveBeenLastCalledWith('--semi-space-growth-factor=1');
      // V8 shrank it while the service was idle: it may grow back to the cap.
      size = 2 * MB;
      cap.check();
      expect(setFlags).toHaveBeenLastCalledWith('--semi-space-growth-factor=2');
      expect(setFlags).toHaveBeenCalledTimes(3);
    } finally {
      cap.stop();
    }
  });

  it('holds a real process’s young generation at 8 MB while it allocates objects that survive, where V8 alone takes 32 MB', () => {
    const youngGeneration = (mode: string): number => {
      const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, '../../test/fixtures/heap-mode-child.ts'), mode], { encoding: 'utf8', timeout: 60_000 });
      expect(run.status, run.stderr).toBe(0);
      return Number(run.stdout.trim());
    };
    expect(youngGeneration('small')).toBeLessThanOrEqual(8 * MB);
    expect(youngGeneration('fast')).toBeGreaterThan(8 * MB);
  });
});
