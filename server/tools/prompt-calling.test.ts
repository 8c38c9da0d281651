import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../test/fixtures/fake-openai';
import { createCompatProvider, type ToolSpec } from '../providers';
import { promptToolCalls, renderToolsPrompt } from './prompt-calling';

const specs: ToolSpec[] = [{ type: 'function', function: { name: 'add', description: 'Adds', parameters: { type: 'object', properties: { a: { type: 'number' } } } } }];

describe('prompt-based tool calling', () => {
  let fake: FakeOpenAI;
  beforeAll(async () => {
    fake = await startFakeOpenAI({ models: ['plain'] });
  });
  afterAll(async () => {
    await fake.close();
  });

  it('fills {{TOOLS}} of the admin template, or uses the built-in default', () => {
    expect(renderToolsPrompt('Tools: {{TOOLS}}', specs)).toContain('"name": "add"');
    expect(renderToolsPrompt('', specs)).toMatch(/You can call these tools[\s\S]*"name": "add"[\s\S]*tool_calls/);
  });

  it('asks the model without native tools and reads the calls from its JSON answer', async () => {
    fake.replyOnce({ text: 'Sure.\n```json\n{"tool_calls": [{"name": "add", "parameters": {"a": 2}}, {"name": "invented", "parameters": {}}]}\n```' });
    const provider = createCompatProvider({ url: fake.url });
    const calls = await promptToolCalls({ provider, model: 'plain', messages: [{ role: 'user', content: 'add 2' }], specs, template: '' });
    expect(calls).toEqual([{ id: 'call_prompt_0', type: 'function', function: { name: 'add', arguments: '{"a":2}' } }]);
    const sent = fake.lastChat()!.body;
    expect(sent.tools).toBeUndefined();
    expect(sent.messages[0].role).toBe('system');
    expect(sent.messages[0].content).toContain('"name": "add"');
    expect(sent.messages.at(-1)).toEqual({ role: 'user', content: 'add 2' });
  });

  it('answers no calls when the model answers something unreadable', async () => {
    fake.replyOnce({ text: 'I would rather not.' });
    const calls = await promptToolCalls({ provider: createCompatProvider({ url: fake.url }), model: 'plain', messages: [{ role: 'user', content: 'hi' }], specs, template: '' });
    expect(calls).toEqual([]);
  });
});
