import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractJsonField, extractStringList } from './json-extract';

describe('reading JSON out of model output', () => {
  it('reads a bare JSON object', () => {
    expect(extractJsonField('{"title": "Paris trip"}', 'title')).toBe('Paris trip');
  });

  it('reads JSON inside a Markdown fence with prose around it', () => {
    const text = 'Sure! Here is the title:\n```json\n{\n  "title": "Baking bread"\n}\n```\nHope that helps.';
    expect(extractJsonField(text, 'title')).toBe('Baking bread');
  });

  it('reads JSON after a reasoning block that itself holds braces', () => {
    const text = '<think>maybe {"title": "wrong"} or not</think>\n{"title": "Right one"}';
    expect(extractJsonField(text, 'title')).toBe('Right one');
  });

  it('reads JSON embedded in a sentence, with braces inside strings', () => {
    const text = 'The answer is {"title": "Sets like {a, b} and [c]"} as requested.';
    expect(extractJsonField(text, 'title')).toBe('Sets like {a, b} and [c]');
  });

  it('repairs trailing commas and curly quotes', () => {
    expect(extractStringList('{\u201ctags\u201d: [\u201cScience\u201d, \u201cPhysics\u201d,],}', 'tags', 10)).toEqual(['Science', 'Physics']);
  });

  it('skips objects without the wanted key', () => {
    expect(extractJsonField('{"note": 1} then {"follow_ups": ["Why?"]}', 'follow_ups')).toEqual(['Why?']);
  });

  it('dedupes, trims and caps lists, and accepts a bare array', () => {
    expect(extractStringList('["a", " A ", "", "b", 3, null, "c"]', 'tags', 3)).toEqual(['a', 'b', '3']);
  });

  it('gives undefined when there is no JSON at all', () => {
    expect(extractJsonField('I cannot help with that.', 'title')).toBeUndefined();
    expect(extractStringList('no list here', 'tags', 5)).toBeUndefined();
  });

  it('finds any object wrapped in arbitrary prose and fences', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string({ maxLength: 40 }), fc.boolean(), (before, after, title, fenced) => {
        const safeBefore = before.replace(/[{}[\]`<>]/g, '');
        const safeAfter = after.replace(/[{}[\]`<>]/g, '');
        const json = JSON.stringify({ title });
        const body = fenced ? `\`\`\`json\n${json}\n\`\`\`` : json;
        expect(extractJsonField(`${safeBefore}\n${body}\n${safeAfter}`, 'title')).toBe(title);
      }),
    );
  });
});
