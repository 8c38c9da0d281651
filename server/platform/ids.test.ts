import { describe, expect, it } from 'vitest';
import { newOrderedId } from './ids';

describe('time-ordered ids', () => {
  it('are version-7 UUIDs that sort in the order they were made, also within one millisecond', () => {
    const ids = Array.from({ length: 5000 }, (_, i) => newOrderedId(1_800_000_000_000 + Math.floor(i / 1000)));
    expect(ids[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
