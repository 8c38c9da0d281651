import { describe, expect, it } from 'vitest';
import { markdownDepth } from './markdown-depth';

describe('markdownDepth', () => {
  it('is small for ordinary messages', () => {
    expect(markdownDepth('Hello **team**, see [the doc](https://example.com/a_(b)).\n\n- one\n  - two\n> quoted')).toBeLessThanOrEqual(3);
    expect(markdownDepth('a < b and c > d; x<y')).toBe(0);
    expect(markdownDepth('<br><img src=x><hr/>')).toBe(0);
  });

  it('counts block quotes, list indentation, brackets and open tags', () => {
    expect(markdownDepth('>'.repeat(30) + ' deep')).toBe(30);
    expect(markdownDepth('> > > > three... four')).toBe(4);
    expect(markdownDepth(Array.from({ length: 12 }, (_, i) => `${'  '.repeat(i)}- level ${i}`).join('\n'))).toBe(12);
    expect(markdownDepth('['.repeat(50) + 'x' + ']'.repeat(50))).toBe(50);
    expect(markdownDepth('<div>'.repeat(40) + '</div>'.repeat(40))).toBe(40);
    expect(markdownDepth('<b>x</b><i>y</i>')).toBe(1);
  });

  it('reads 100 KB of hostile text in linear time', () => {
    const started = performance.now();
    markdownDepth('<a'.repeat(50_000));
    markdownDepth('[('.repeat(50_000));
    expect(performance.now() - started).toBeLessThan(500);
  });
});
