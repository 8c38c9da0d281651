import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createChunkBatcher } from './chunk-batcher';

describe('chunk batcher', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends the first piece at once, groups fast pieces, and loses nothing at the end', () => {
    const sent: string[] = [];
    const batcher = createChunkBatcher((text) => sent.push(text), 10, () => Date.now());
    batcher.push('Hel');
    expect(sent).toEqual(['Hel']);
    batcher.push('lo');
    batcher.push(', ');
    expect(sent).toEqual(['Hel']);
    vi.advanceTimersByTime(10);
    expect(sent).toEqual(['Hel', 'lo, ']);
    batcher.push('world');
    batcher.flush();
    expect(sent).toEqual(['Hel', 'lo, ', 'world']);
    vi.advanceTimersByTime(50);
    expect(sent.join('')).toBe('Hello, world');
  });

  it('sends slow pieces one by one without delay', () => {
    const sent: string[] = [];
    const batcher = createChunkBatcher((text) => sent.push(text), 10, () => Date.now());
    for (const piece of ['a', 'b', 'c']) {
      batcher.push(piece);
      expect(sent.at(-1)).toBe(piece);
      vi.advanceTimersByTime(40);
    }
    expect(sent).toEqual(['a', 'b', 'c']);
  });
});
