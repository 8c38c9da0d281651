import { describe, expect, it } from 'vitest';
import { AnswerText } from './answer-text';

describe('AnswerText', () => {
  it('joins decoded text and the literals of each read in order', () => {
    const draft = new AnswerText();
    draft.appendLiterals(['"Hel"', '"lo"']);
    draft.appendText(', ');
    draft.appendLiterals(['"w\\u00f6rld"', '"\\n\\"quoted\\""']);
    expect(draft.text()).toBe('Hello, wörld\n"quoted"');
  });

  it('keeps a character whose surrogate halves arrive in two reads', () => {
    const draft = new AnswerText();
    draft.appendLiterals(['"smile \\ud83d"']);
    draft.appendLiterals(['"\\ude00!"']);
    expect(draft.text()).toBe('smile 😀!');
  });

  it('cuts what a stopped round wrote past its end and goes on from there', () => {
    const draft = new AnswerText();
    draft.appendLiterals(['"first "', '"second"']);
    draft.truncate(6);
    draft.appendText('third');
    expect(draft.text()).toBe('first third');
  });
});
