import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SUGGESTIONS } from './suggestions';

const english = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../renderer/src/locales/en/chat.json'), 'utf8')) as Record<string, string>;

describe('the built-in suggested prompts', () => {
  it('are the English catalog’s, word for word, so the UI shows them in each person’s language', () => {
    expect(DEFAULT_SUGGESTIONS.map((s, i) => [s.title[0], s.title[1], s.content, i + 1])).toEqual(
      DEFAULT_SUGGESTIONS.map((_, i) => [english[`chat.defaultSuggestion${i + 1}.title`], english[`chat.defaultSuggestion${i + 1}.sub`], english[`chat.defaultSuggestion${i + 1}.prompt`], i + 1]),
    );
  });
});
