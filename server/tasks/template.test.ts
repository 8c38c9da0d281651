import { describe, expect, it } from 'vitest';
import { renderTemplate } from './template';

const messages = [
  { role: 'user', content: 'one' },
  { role: 'assistant', content: 'two' },
  { role: 'user', content: [{ type: 'text', text: 'three' }, { type: 'image_url', image_url: { url: 'x' } }] },
];

describe('task templates', () => {
  it('puts the last n messages where MESSAGES:END:n is', () => {
    expect(renderTemplate('<{{MESSAGES:END:2}}>', { messages })).toBe('<ASSISTANT: two\nUSER: three>');
  });

  it('supports START, MIDDLETRUNCATE and all messages', () => {
    expect(renderTemplate('{{MESSAGES:START:1}}', { messages })).toBe('USER: one');
    expect(renderTemplate('{{MESSAGES:MIDDLETRUNCATE:2}}', { messages })).toBe('USER: one\nUSER: three');
    expect(renderTemplate('{{MESSAGES}}', { messages }).split('\n')).toHaveLength(3);
  });

  it('cuts the prompt as asked', () => {
    expect(renderTemplate('{{prompt:start:3}}|{{prompt:end:3}}|{{prompt:middletruncate:4}}', { prompt: 'abcdefgh' })).toBe('abc|fgh|ab…gh');
  });

  it('never expands placeholders that arrive inside the inserted text', () => {
    expect(renderTemplate('{{prompt}}', { prompt: 'say {{MESSAGES}}', messages })).toBe('say {{MESSAGES}}');
  });

  it('fills the date and leaves unknown placeholders alone', () => {
    expect(renderTemplate('{{CURRENT_DATE}} {{UNKNOWN}}', { now: new Date('2026-03-04T05:06:07Z') })).toBe('2026-03-04 {{UNKNOWN}}');
  });
});
