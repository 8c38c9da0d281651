import { describe, expect, it } from 'vitest';
import { mergeTexts } from './merge';

const labels = { mine: 'mine', theirs: 'theirs' };

describe('merging two versions of a note', () => {
  it('takes each side’s changes where they do not overlap', () => {
    const base = 'Agenda\n- budget\n- hiring\n- office move';
    const mine = 'Agenda\n- budget (approved)\n- hiring\n- office move';
    const theirs = 'Agenda\n- budget\n- hiring\n- office move\n- party';
    expect(mergeTexts(base, mine, theirs, labels)).toEqual({ text: 'Agenda\n- budget (approved)\n- hiring\n- office move\n- party', conflicts: 0 });
  });

  it('keeps both versions of a line both changed, marked, so nothing is lost', () => {
    const merged = mergeTexts('Meet at 10', 'Meet at 11', 'Meet at 9:30', labels);
    expect(merged.conflicts).toBe(1);
    expect(merged.text).toBe('<<<<<<< mine\nMeet at 11\n=======\nMeet at 9:30\n>>>>>>> theirs');
  });

  it('sees the same change on both sides as no conflict', () => {
    expect(mergeTexts('a\nb', 'a\nB', 'a\nB', labels)).toEqual({ text: 'a\nB', conflicts: 0 });
  });
});
