import { describe, expect, it } from 'vitest';
import { jsonDepth } from './json-depth';

const depthOf = (text: string) => jsonDepth(Buffer.from(text));

describe('JSON nesting depth, counted before parsing', () => {
  it('counts arrays and objects, not brackets inside strings (escaped quotes included)', () => {
    expect(depthOf('{"a":[1,{"b":[]}]}')).toBe(4);
    expect(depthOf('{"a":"[[[{{{\\"[[["}')).toBe(1);
    expect(depthOf('"plain"')).toBe(0);
    expect(depthOf('{"emoji":"😀 [ß]","x":[[]]}')).toBe(3);
  });

  it('stops counting soon after the limit, however deep the text goes', () => {
    expect(depthOf('['.repeat(200_000) + ']'.repeat(200_000))).toBe(201);
  });
});
