import { describe, expect, it } from 'vitest';
import { closeOpenMarkdown } from './close-open-markdown';

describe('closing the markers a streaming answer has opened, for display', () => {
  it.each([
    ['bold whose closing ** has not arrived', 'Here is **bold', 'Here is **bold**'],
    ['italic', 'an *important', 'an *important*'],
    ['underscores', 'a __strong', 'a __strong__'],
    ['strike-through', 'was ~~wrong', 'was ~~wrong~~'],
    ['inline code', 'run `npm te', 'run `npm te`'],
    ['nested, innermost first', '**bold and *it', '**bold and *it***'],
    ['trailing spaces before the closer', 'Here is **bold ', 'Here is **bold**'],
    ['an opener with nothing after it yet is dropped', 'Here is **', 'Here is '],
  ])('%s', (_name, text, shown) => {
    expect(closeOpenMarkdown(text)).toBe(shown);
  });

  it.each([
    ['closed emphasis', 'a **bold** and *it* word'],
    ['a list bullet', '* first item\n* second'],
    ['a product with spaces', '2 * 3 = 6'],
    ['a snake_case name', 'call snake_case_name now'],
    ['markers inside closed code', 'use `**kwargs` here'],
    ['an open code fence (already code)', 'text\n\n```python\nprint("**hi")'],
    ['an escaped star', 'a \\*literal star'],
    ['a marker opened in an earlier paragraph', 'one **open\n\nsecond paragraph'],
  ])('leaves %s alone', (_name, text) => {
    expect(closeOpenMarkdown(text)).toBe(text);
  });

  it('ends a code span only at a run of as many backticks', () => {
    expect(closeOpenMarkdown('a ``code ` still')).toBe('a ``code ` still``');
    expect(closeOpenMarkdown('a ``code`` then **b')).toBe('a ``code`` then **b**');
  });

  it('looks only after a closed code fence', () => {
    expect(closeOpenMarkdown('```\n**x\n```\nthen **bold')).toBe('```\n**x\n```\nthen **bold**');
  });
});
