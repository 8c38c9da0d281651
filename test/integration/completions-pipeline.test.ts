import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { DEFAULT_TASK_CONFIG } from '../../server/contracts/tasks';
import type { RetrievalInput, ToolsInput } from '../../server/completions';

function chunks(text: string): any[] {
  return text
    .split('\n\n')
    .filter((f) => f.startsWith('data: {'))
    .map((f) => JSON.parse(f.slice(6)));
}

/** The retrieval and tools stages, with engines plugged in the way the knowledge and tools domains do. */
describe('completion pipeline stages', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let openai: FakeOpenAI;
  const retrievals: RetrievalInput[] = [];
  const toolInputs: ToolsInput[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin, 'user', 'Alice');
    openai = await startFakeOpenAI({ models: ['gpt-fake'] });
    const as = server.as(admin.token);
    await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
    await as.post('/api/v1/tasks/config/update', { ...DEFAULT_TASK_CONFIG, ENABLE_TITLE_GENERATION: false, ENABLE_TAGS_GENERATION: false, ENABLE_FOLLOW_UP_GENERATION: false });
    await as.post('/api/v1/models/create', {
      id: 'kb-helper',
      name: 'KB helper',
      base_model_id: 'gpt-fake',
      params: { system: 'You are KB helper.' },
      meta: { knowledge: [{ id: 'kb-1', name: 'Handbook', type: 'collection' }], toolIds: ['calc'] },
    });
    server.services.completions.useRetriever(async (input) => {
      retrievals.push(input);
      return {
        sources: [{ source: { id: 'kb-1', name: 'Handbook', type: 'collection' }, document: ['Holidays are 25 days a year.'], metadata: [{ page: 3 }] }],
        context: '<source id="1" name="Handbook">Holidays are 25 days a year.</source>',
      };
    });
    server.services.completions.useTools(async (input) => {
      toolInputs.push(input);
      return {
        specs: [{ type: 'function', function: { name: 'add', description: 'Adds', parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } } }],
        execute: async (call) => {
          const args = JSON.parse(call.function.arguments) as { a: number; b: number };
          if (args.b === 0) throw new Error('b must not be zero');
          return String(args.a + args.b);
        },
      };
    });
  });
  afterAll(async () => {
    await server?.close();
    await openai?.close();
  });
  beforeEach(() => {
    openai.reset();
    retrievals.length = 0;
    toolInputs.length = 0;
  });

  it("sends sources in the first frame, before any text, and gives the model the context after its system prompt", async () => {
    openai.reply((body) => (body.tools ? { tool_calls: [], text: '25 days [1].' } : { text: '25 days [1].' }));
    const res = await server.as(alice.token).post('/api/chat/completions', { model: 'kb-helper', messages: [{ role: 'user', content: 'How many holidays?' }], stream: true });
    expect(res.status).toBe(200);
    const all = chunks(res.text);
    expect(all[0].sources).toEqual([{ source: { id: 'kb-1', name: 'Handbook', type: 'collection' }, document: ['Holidays are 25 days a year.'], metadata: [{ page: 3 }] }]);
    expect(all[0].choices).toEqual([]);
    expect(all.findIndex((c) => c.choices[0]?.delta?.content)).toBeGreaterThan(0);

    const sent = openai.lastChat()!.body.messages;
    expect(sent[0].role).toBe('system');
    expect(sent[0].content.startsWith('You are KB helper.')).toBe(true);
    expect(sent[0].content).toContain('Holidays are 25 days a year.');
    expect(retrievals[0]!.files).toEqual([{ type: 'collection', id: 'kb-1', origin: 'model', name: 'Handbook' }]);
    expect(retrievals[0]!.knowledge).toEqual([{ id: 'kb-1', name: 'Handbook', type: 'collection' }]);
  });

  it('gives retrieval the files sent with the request and those attached to the chat, and saves the sources', async () => {
    const form = new FormData();
    form.append('files', new Blob(['attached']), 'a.txt');
    form.append('files', new Blob(['sent']), 'b.txt');
    const [attached, sent] = (await server.as(alice.token).raw('POST', '/api/v1/chats/attachment/upload', form)).body;
    const chat = (await server.as(alice.token).post('/api/v1/chats/new', {})).body.id;
    await server.as(alice.token).patch(`/api/v1/chats/${chat}/attachments`, { attachment_ids: [attached.id] });
    const res = await server.as(alice.token).post('/api/chat/completions', {
      model: 'gpt-fake',
      messages: [{ role: 'user', content: 'Summarise' }],
      files: [{ type: 'file', id: sent.id }, { type: 'collection', id: 'kb-9' }],
      chat_id: chat,
    });
    expect(res.status).toBe(200);
    expect(res.body.sources).toHaveLength(1);
    expect(retrievals[0]!.files.map((f) => `${f.type}:${f.id}:${f.origin}`)).toEqual([`file:${sent.id}:request`, 'collection:kb-9:request', `file:${attached.id}:chat`]);
    const saved = (await server.as(alice.token).get(`/api/v1/chats/${chat}`)).body;
    expect(saved.messages[0].files).toEqual([{ type: 'file', id: sent.id }, { type: 'collection', id: 'kb-9' }]);
    expect(saved.messages[1].sources[0].source.name).toBe('Handbook');
    // The file sent with the message is now attached to the chat too.
    const attachments = (await server.as(alice.token).patch(`/api/v1/chats/${chat}/attachments`, { attachment_ids: [attached.id, sent.id] })).body.attachments;
    expect(attachments).toHaveLength(2);
  });

  it('runs tool calls between rounds and streams the final answer, with status frames', async () => {
    openai.replyOnce({ text: '', tool_calls: [{ id: 'call_1', name: 'add', arguments: { a: 2, b: 3 } }] });
    openai.replyOnce({ text: 'The sum is 5.' });
    const res = await server.as(alice.token).post('/api/chat/completions', { model: 'kb-helper', messages: [{ role: 'user', content: 'What is 2+3?' }], stream: true, tool_ids: ['extra'] });
    expect(res.status).toBe(200);
    const all = chunks(res.text);
    expect(all.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe('The sum is 5.');
    expect(all.filter((c) => c.status).map((c) => c.status.done)).toEqual([false, true]);
    expect(toolInputs[0]!.toolIds.sort()).toEqual(['calc', 'extra']);

    const [first, second] = openai.chats();
    expect(first!.body.tools[0].function.name).toBe('add');
    const tail = second!.body.messages.slice(-2);
    expect(tail[0]).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'call_1', function: { name: 'add' } }] });
    expect(tail[1]).toMatchObject({ role: 'tool', tool_call_id: 'call_1', content: '5' });
  });

  it('streams each tool call as a step and saves the steps with the answer, failures with their reason', async () => {
    openai.replyOnce({ text: '', tool_calls: [{ id: 'call_a', name: 'add', arguments: { a: 2, b: 3 } }, { id: 'call_b', name: 'add', arguments: { a: 1, b: 0 } }] });
    openai.replyOnce({ text: 'Done.' });
    const chat = (await server.as(alice.token).post('/api/v1/chats/new', {})).body.id;
    const res = await server.as(alice.token).post('/api/chat/completions', { model: 'kb-helper', messages: [{ role: 'user', content: 'Add things' }], stream: true, chat_id: chat });
    expect(res.status).toBe(200);
    const streamed = chunks(res.text).filter((c) => c.tool_step).map((c) => c.tool_step);
    expect(streamed.map((s) => [s.id, s.name, s.result, s.error])).toEqual([
      ['call_a', 'add', '5', null],
      ['call_b', 'add', '', 'b must not be zero'],
    ]);
    expect(streamed[0].arguments).toBe('{"a":2,"b":3}');
    expect(typeof streamed[0].duration_ms).toBe('number');

    const saved = (await server.as(alice.token).get(`/api/v1/chats/${chat}`)).body;
    const answer = saved.messages.at(-1);
    expect(answer.content).toBe('Done.');
    expect(answer.tool_steps).toEqual(streamed);
    expect(saved.messages[0].tool_steps).toEqual([]);
  });
});
