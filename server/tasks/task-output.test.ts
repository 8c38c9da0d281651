import { describe, expect, it } from 'vitest';
import { parseFollowUps, parseTitle } from './task-output';

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
