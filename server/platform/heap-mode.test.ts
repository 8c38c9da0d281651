import { describe, expect, it, vi } from 'vitest';
import { applyHeapMode } from './heap-mode';

describe('the heap mode', () => {
  it('keeps the heap’s growth to 60 % by default, gives it back to V8 for fast, and sets nothing twice', () => {
    const setFlags = vi.fn();
    applyHeapMode('small', setFlags);
    applyHeapMode('small', setFlags);
    expect(setFlags.mock.calls).toEqual([['--heap-growing-percent=60']]);
    applyHeapMode('fast', setFlags);
    expect(setFlags.mock.calls).toEqual([['--heap-growing-percent=60'], ['--heap-growing-percent=0']]);
  });
});
