import { describe, expect, it } from 'vitest';
import { builtInValues, commandAt, fillPrompt, userVariables, usesClipboard } from './prompt-variables';

describe('prompt variables', () => {
  it('asks only for user-defined variables, each once, in order', () => {
    expect(userVariables('Hi {{ name }}, on {{CURRENT_DATE}} write to {{name}} about {{topic}} {{CLIPBOARD}}')).toEqual(['name', 'topic']);
  });

  it('fills built-in and user values and leaves unknown variables as written', () => {
    const values = { ...builtInValues(new Date(2026, 10, 25, 9, 5), 'Ada', 'copied'), topic: 'tea' };
    expect(fillPrompt('{{CURRENT_DATE}} {{CURRENT_TIME}} {{USER_NAME}}: {{topic}} / {{CLIPBOARD}} / {{other}}', values)).toBe('2026-11-25 09:05 Ada: tea / copied / {{other}}');
    expect(usesClipboard('a {{ CLIPBOARD }}')).toBe(true);
    expect(usesClipboard('a {{CURRENT_DATE}}')).toBe(false);
  });

  it('finds the /command being typed at the start or after a space, not inside a word or path', () => {
    expect(commandAt('/sum', 4)).toEqual({ start: 0, query: 'sum' });
    expect(commandAt('please /Tr', 10)).toEqual({ start: 7, query: 'tr' });
    expect(commandAt('a/b', 3)).toBeNull();
    expect(commandAt('/sum more', 9)).toBeNull();
  });
});
