import { describe, expect, it } from 'vitest';
import { attachedBudget, attachedSource, documentText, planAttached } from './attached-files';

describe('attached files', () => {
  it('puts a document back together from overlapping chunks without repeating the overlap', () => {
    expect(documentText([{ text: 'The quick brown fox', context: null }, { text: 'brown fox jumps over', context: null }, { text: 'the lazy dog', context: null }])).toBe(
      'The quick brown fox jumps over\n\nthe lazy dog',
    );
  });

  it('uses each parent once for parent/child chunks', () => {
    expect(documentText([{ text: 'a', context: 'Parent one.' }, { text: 'b', context: 'Parent one.' }, { text: 'c', context: 'Parent two.' }])).toBe('Parent one.\n\nParent two.');
  });

  it('sends every file whole when they fit, else the small ones whole and the big one as passages', () => {
    const small = { fileId: 's', name: 's.txt', text: 'x'.repeat(100) };
    const big = { fileId: 'b', name: 'b.txt', text: 'y'.repeat(10_000) };
    expect(planAttached([small, big], 20_000).map((p) => p.mode)).toEqual(['full', 'full']);
    const plan = planAttached([big, small], 1_000);
    expect(plan.map((p) => p.mode)).toEqual(['passages', 'full']);
    expect(plan[0]!.chars).toBe(900);
  });

  it('budgets half the window, 32k tokens when the model does not say', () => {
    expect(attachedBudget(undefined)).toBe(65_536);
    expect(attachedBudget(1000)).toBe(2000);
  });

  it('never sends nothing: the beginning goes even when no passage fits', () => {
    const doc = { fileId: 'f', name: 'f.txt', text: 'Intro line.\n\n' + 'z'.repeat(5000) };
    const source = attachedSource(doc, 'passages', 200, []);
    expect(source.document[0]).toContain('Intro line.');
  });
});
