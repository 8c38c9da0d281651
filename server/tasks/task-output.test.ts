import { describe, expect, it } from 'vitest';
import { fallbackTitle, parseFollowUps, parseTitle } from './task-output';

describe('parseFollowUps', () => {
  it('takes the questions of the JSON follow_ups array', () => {
    expect(parseFollowUps('Here you go:\n{"follow_ups": ["How long should it proof?", "Which flour is best?"]}')).toEqual(['How long should it proof?', 'Which flour is best?']);
  });

  it('never turns a citation marker in an answer text into a suggestion', () => {
    expect(parseFollowUps('Sourdough needs a starter that is fed daily [1].')).toEqual([]);
    expect(parseFollowUps('Proof it overnight [1][2]. See also [3].')).toEqual([]);
  });

  it('drops numbers, markers and empty entries from the follow_ups array', () => {
    expect(parseFollowUps('{"follow_ups": [1, "[2]", "3.", "  ", "What about rye?", "what about rye?"]}')).toEqual(['What about rye?']);
  });

  it('gives no suggestions for prose without the JSON array, even when it ends in a question mark', () => {
    expect(parseFollowUps('Would you like to know more?\n1. Why?')).toEqual([]);
  });

  it('keeps at most five suggestions', () => {
    const many = JSON.stringify({ follow_ups: ['One a?', 'Two b?', 'Three c?', 'Four d?', 'Five e?', 'Six f?'] });
    expect(parseFollowUps(many)).toHaveLength(5);
  });
});

describe('parseTitle', () => {
  it('takes the JSON title, and a plain first line without Markdown marks when there is no JSON', () => {
    expect(parseTitle('{"title": "Bread Baking Basics"}')).toBe('Bread Baking Basics');
    expect(parseTitle('A **short** answer with `code` and a list:\n\n- one')).toBe('A short answer with code and a list');
  });
});

describe('fallbackTitle', () => {
  it('takes the first question whole when short, and cuts a long one at a word with an ellipsis', () => {
    expect(fallbackTitle([{ role: 'system', content: 'Be brief' }, { role: 'user', content: '  How do I\n bake bread?  ' }])).toBe('How do I bake bread?');
    const cut = fallbackTitle([{ role: 'user', content: 'Could you explain how sourdough fermentation works in a cold kitchen?' }]);
    expect(cut).toBe('Could you explain how sourdough fermentation…');
    expect(cut.length).toBeLessThanOrEqual(50);
    expect(fallbackTitle([{ role: 'user', content: 'x'.repeat(80) }])).toBe(`${'x'.repeat(49)}…`);
    expect(fallbackTitle([{ role: 'assistant', content: 'Hi' }])).toBe('New Chat');
  });

  it('parseTitle gives no title for junk, so the fallback is used', () => {
    for (const junk of ['', '...', '```json\n{}\n```', '{"title": 42}', '<think>hmm</think>', '[1]']) expect(parseTitle(junk), junk).toBeUndefined();
  });
});
