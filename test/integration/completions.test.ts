import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { startFakeOllama, type FakeOllama } from '../fixtures/fake-ollama';
import { DEFAULT_TASK_CONFIG } from '../../server/contracts/tasks';

/** Splits an SSE body into its `data:` payloads. */
function frames(text: string): string[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      expect(block.startsWith('data: ')).toBe(true);
      return block.slice('data: '.length);
    });
}

function parsed(text: string): any[] {
  const all = frames(text);
  expect(all[all.length - 1]).toBe('[DONE]');
  return all.slice(0, -1).map((f) => JSON.parse(f));
}

const contentOf = (chunks: any[]) => chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('');

describe('chat completions', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let openai: FakeOpenAI;
  let ollama: FakeOllama;
  const post = (user: TestUser, body: unknown) => server.as(user.token).post('/api/chat/completions', body);

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin, 'user', 'Alice');
    bob = await buildUser(server, admin, 'user', 'Bob');
    openai = await startFakeOpenAI({ key: 'sk-chat', models: ['gpt-fake'] });
    ollama = await startFakeOllama({ models: ['llama-fake:latest'] });
    const as = server.as(admin.token);
    await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: ['sk-chat'], COMPAT_API_CONFIGS: {} });
    await as.post('/local/config/update', { LOCAL_BASE_URLS: [ollama.url] });
    const created = await as.post('/api/v1/models/create', {
      id: 'helper',
      name: 'Helper',
      base_model_id: 'gpt-fake',
      params: { system: 'You are Helper.', temperature: 0.3, max_tokens: 200 },
      meta: {},
    });
    expect(created.status).toBe(200);
    // Background tasks would send their own provider requests; these tests look at chat requests only.
    const off = { ...DEFAULT_TASK_CONFIG, ENABLE_TITLE_GENERATION: false, ENABLE_TAGS_GENERATION: false, ENABLE_FOLLOW_UP_GENERATION: false };
    expect((await as.post('/api/v1/tasks/config/update', off)).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
    await openai?.close();
    await ollama?.close();
  });
  beforeEach(() => {
    openai.reset();
    ollama.reset();
  });

  it('streams OpenAI chunks carrying only new text, usage in the last chunk, then [DONE]', async () => {
    openai.reply({ pieces: ['Hel', 'lo ', 'there'], usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } });
    const res = await post(alice, { model: 'gpt-fake', messages: [{ role: 'user', content: 'Hi' }], stream: true });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const chunks = parsed(res.text);
    const withText = chunks.filter((c) => c.choices[0]?.delta?.content);
    expect(withText.map((c) => c.choices[0].delta.content)).toEqual(['Hel', 'lo ', 'there']);
    for (const c of chunks) {
      expect(c).toMatchObject({ id: chunks[0].id, object: 'chat.completion.chunk', created: expect.any(Number), model: 'gpt-fake' });
    }
    expect(chunks[0].id).toMatch(/^chatcmpl-/);
    expect(withText[0].choices[0].delta.role).toBe('assistant');
    const last = chunks[chunks.length - 1];
    expect(last.choices[0].finish_reason).toBe('stop');
    expect(last.usage).toEqual({ prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 });
  });

  it('answers a chat.completion object with the same content when stream is false', async () => {
    openai.reply({ text: 'The same answer both ways.' });
    const streamed = contentOf(parsed((await post(alice, { model: 'gpt-fake', messages: [{ role: 'user', content: 'x' }], stream: true })).text));
    const res = await post(alice, { model: 'gpt-fake', messages: [{ role: 'user', content: 'x' }] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^chatcmpl-/),
      object: 'chat.completion',
      created: expect.any(Number),
      model: 'gpt-fake',
      choices: [{ index: 0, message: { role: 'assistant', content: 'The same answer both ways.' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number), total_tokens: expect.any(Number) },
    });
    expect(streamed).toBe(res.body.choices[0].message.content);
  });

  it('streams from a local (Ollama-style) provider the same way', async () => {
    ollama.reply({ pieces: ['local ', 'answer'] });
    const res = await post(alice, { model: 'llama-fake:latest', messages: [{ role: 'user', content: 'Hi' }], stream: true });
    expect(res.status).toBe(200);
    expect(contentOf(parsed(res.text))).toBe('local answer');
  });

  it("puts the custom model's system prompt first and uses its settings, request values winning", async () => {
    await post(alice, { model: 'helper', messages: [{ role: 'user', content: 'Hello' }] });
    let sent = openai.lastChat()!.body;
    expect(sent.model).toBe('gpt-fake');
    expect(sent.messages).toEqual([
      { role: 'system', content: 'You are Helper.' },
      { role: 'user', content: 'Hello' },
    ]);
    expect(sent.temperature).toBe(0.3);
    expect(sent.max_tokens).toBe(200);

    await post(alice, {
      model: 'helper',
      messages: [
        { role: 'system', content: 'Answer in French.' },
        { role: 'user', content: 'Hello' },
      ],
      temperature: 0.9,
      seed: 42,
      stop: ['END'],
      max_tokens: 50,
    });
    sent = openai.lastChat()!.body;
    expect(sent.messages[0]).toEqual({ role: 'system', content: 'You are Helper.\n\nAnswer in French.' });
    expect(sent.messages).toHaveLength(2);
    expect(sent).toMatchObject({ temperature: 0.9, seed: 42, stop: ['END'], max_tokens: 50 });
  });

  it('saves the user message and the answer into chat_id, and keeps regenerations as branches', async () => {
    const chat = (await server.as(alice.token).post('/api/v1/chats/new', { title: 'Saved' })).body.id;
    openai.reply({ text: 'First answer' });
    const first = await post(alice, { model: 'gpt-fake', messages: [{ role: 'user', content: 'Question one' }], stream: true, chat_id: chat });
    const last = parsed(first.text).at(-1);
    expect(last.chat_id).toBe(chat);
    expect(last.message_id).toEqual(expect.any(String));
    expect(last.user_message_id).toEqual(expect.any(String));

    openai.reply({ text: 'Second answer' });
    const second = await post(alice, {
      model: 'gpt-fake',
      messages: [
        { role: 'user', content: 'Question one' },
        { role: 'assistant', content: 'First answer' },
        { role: 'user', content: 'Question two' },
      ],
      chat_id: chat,
    });
    expect(second.body.chat_id).toBe(chat);

    let saved = (await server.as(alice.token).get(`/api/v1/chats/${chat}`)).body;
    expect(saved.messages.map((m: any) => [m.role, m.content, m.status])).toEqual([
      ['user', 'Question one', 'complete'],
      ['assistant', 'First answer', 'complete'],
      ['user', 'Question two', 'complete'],
      ['assistant', 'Second answer', 'complete'],
    ]);
    expect(saved.messages[3].model).toBe('gpt-fake');
    expect([saved.messages[0].id, saved.messages[1].id]).toEqual([last.user_message_id, last.message_id]);
    expect(second.body.user_message_id).toBe(saved.messages[2].id);
    expect(saved.messages[3].usage).toMatchObject({ total_tokens: expect.any(Number) });

    openai.reply({ text: 'Second answer, again' });
    await post(alice, { model: 'gpt-fake', messages: saved.messages.slice(0, 3).map((m: any) => ({ role: m.role, content: m.content })), chat_id: chat, regenerate: true });
    saved = (await server.as(alice.token).get(`/api/v1/chats/${chat}`)).body;
    expect(saved.messages.map((m: any) => m.content)).toEqual(['Question one', 'First answer', 'Question two', 'Second answer, again']);
    expect(saved.history.messages[saved.messages[2].id].children_ids).toHaveLength(2);
  });

  it('aborts the upstream request as soon as the client disconnects, and keeps the partial answer', async () => {
    const chat = (await server.as(alice.token).post('/api/v1/chats/new', {})).body.id;
    openai.reply({ pieces: Array.from({ length: 200 }, (_, i) => `w${i} `), delayMs: 20 });
    const controller = new AbortController();
    const res = await fetch(`${server.url}/api/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-fake', messages: [{ role: 'user', content: 'long please' }], stream: true, chat_id: chat }),
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toContain('w0');
    const before = Date.now();
    controller.abort();
    await openai.waitForAbort(2000);
    expect(Date.now() - before).toBeLessThan(1000);
    expect(openai.abortCount).toBe(1);

    // The answer is saved as it streams; its final state is written once the abort is handled
    // (on a busy PostgreSQL a read can come first).
    let answer: any;
    for (let i = 0; i < 150 && answer?.status !== 'interrupted'; i += 1) {
      const msgs = (await server.as(alice.token).get(`/api/v1/chats/${chat}`)).body.messages;
      answer = msgs.find((m: any) => m.role === 'assistant');
      if (answer?.status !== 'interrupted') await new Promise((r) => setTimeout(r, 20));
    }
    expect(answer.status).toBe('interrupted');
    expect(answer.content.startsWith('w0')).toBe(true);
    expect(answer.content.length).toBeLessThan(200 * 4);
  });

  it('ends the stream with an error event when the provider fails mid-answer, saving the partial answer', async () => {
    const chat = (await server.as(alice.token).post('/api/v1/chats/new', {})).body.id;
    openai.reply({ pieces: ['one ', 'two ', 'three ', 'four'], failAfter: 2, error: 'model overloaded' });
    const res = await post(alice, { model: 'gpt-fake', messages: [{ role: 'user', content: 'go' }], stream: true, chat_id: chat });
    expect(res.status).toBe(200);
    const chunks = parsed(res.text);
    expect(contentOf(chunks)).toBe('one two ');
    const last = chunks.at(-1);
    expect(last.error).toMatchObject({ message: expect.stringContaining('model overloaded'), type: 'provider_error' });
    expect(last.choices[0].finish_reason).toBe('error');
    expect(last.chat_id).toBe(chat);
    const saved = (await server.as(alice.token).get(`/api/v1/chats/${chat}`)).body.messages;
    expect(saved[1]).toMatchObject({ role: 'assistant', content: 'one two ', status: 'interrupted', error: expect.stringContaining('model overloaded') });
  });

  it('ends the stream with an error event when the provider connection drops mid-answer', async () => {
    openai.reply({ pieces: ['one ', 'two ', 'three ', 'four'], failAfter: 2, failMode: 'disconnect', delayMs: 10 });
    const res = await post(alice, { model: 'gpt-fake', messages: [{ role: 'user', content: 'go' }], stream: true });
    expect(res.status).toBe(200);
    const chunks = parsed(res.text);
    // The piece written just before the cut may be lost with the connection.
    expect(contentOf(chunks)).toMatch(/^one /);
    expect(chunks.at(-1).error.message).toEqual(expect.any(String));
  });

  it('answers 502 with a detail when the provider fails before any text', async () => {
    openai.reply({ status: 500, error: 'upstream exploded' });
    const streamed = await post(alice, { model: 'gpt-fake', messages: [{ role: 'user', content: 'x' }], stream: true });
    expect(streamed.status).toBe(502);
    expect(streamed.body.detail).toMatch(/provider/i);
    const plain = await post(alice, { model: 'gpt-fake', messages: [{ role: 'user', content: 'x' }] });
    expect(plain.status).toBe(502);
  });

  it('sends frames whose size does not grow with the length of the answer', async () => {
    const sizes = async (n: number) => {
      openai.reply({ pieces: Array.from({ length: n }, () => 'tok '), usage: false });
      const res = await post(alice, { model: 'gpt-fake', messages: [{ role: 'user', content: 'x' }], stream: true });
      const content = frames(res.text).filter((f) => f.includes('"content"'));
      return { total: Buffer.byteLength(res.text), sizes: content.map((f) => Buffer.byteLength(f)) };
    };
    const short = await sizes(100);
    const long = await sizes(2000);
    expect(long.sizes).toHaveLength(2000);
    // Every text frame after the first is the same size: only the new fragment travels.
    const steady = long.sizes.slice(1);
    expect(Math.max(...steady) - Math.min(...steady)).toBe(0);
    expect(Math.max(...long.sizes)).toBeLessThan(300);
    // Bytes on the wire grow linearly with the answer.
    expect(long.total / short.total).toBeGreaterThan(15);
    expect(long.total / short.total).toBeLessThan(25);
  });

  describe('refusals', () => {
    it('401 without a token', async () => {
      const res = await server.anon.post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'x' }] });
      expect(res.status).toBe(401);
    });

    it('403 for a pending account', async () => {
      const pending = await buildUser(server, admin, 'pending');
      expect((await post(pending, { model: 'gpt-fake', messages: [] })).status).toBe(403);
    });

    it('400 naming the field for invalid request parameters', async () => {
      const cases: Array<[unknown, RegExp]> = [
        [{ messages: [{ role: 'user', content: 'x' }] }, /model/],
        [{ model: 'gpt-fake' }, /messages/],
        [{ model: 'gpt-fake', messages: [] }, /messages/],
        [{ model: 'gpt-fake', messages: [{ role: 'wizard', content: 'x' }] }, /role/],
        [{ model: 'gpt-fake', messages: [{ role: 'user', content: 'x' }], temperature: 'hot' }, /temperature/],
        [{ model: 'gpt-fake', messages: [{ role: 'user', content: 'x' }], stream: 'yes' }, /stream/],
        [{ model: 'gpt-fake', messages: [{ role: 'user', content: 'x' }], files: [{ type: 'disk', id: 'x' }] }, /files/],
      ];
      for (const [body, field] of cases) {
        const res = await post(alice, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.detail).toMatch(field);
      }
      const malformed = await server.as(alice.token).raw('POST', '/api/chat/completions', '{"model":', { 'content-type': 'application/json' });
      expect(malformed.status).toBe(400);
      expect(openai.chats()).toHaveLength(0);
    });

    it('404 for an unknown model, without calling any provider', async () => {
      const res = await post(alice, { model: 'no-such-model', messages: [{ role: 'user', content: 'x' }], stream: true });
      expect(res.status).toBe(404);
      expect(res.body.detail).toMatch(/model/i);
      expect(openai.chats()).toHaveLength(0);
    });

    it("403 for another user's chat_id or file, 404 for unknown ones, before the provider is called", async () => {
      const bobsChat = (await server.as(bob.token).post('/api/v1/chats/new', {})).body.id;
      const msg = [{ role: 'user', content: 'x' }];
      expect((await post(alice, { model: 'gpt-fake', messages: msg, chat_id: bobsChat })).status).toBe(403);
      expect((await post(alice, { model: 'gpt-fake', messages: msg, chat_id: 'nope' })).status).toBe(404);
      const form = new FormData();
      form.append('files', new Blob(['bob secret']), 'b.txt');
      const bobsFile = (await server.as(bob.token).raw('POST', '/api/v1/chats/attachment/upload', form)).body[0].id;
      expect((await post(alice, { model: 'gpt-fake', messages: msg, files: [{ type: 'file', id: bobsFile }] })).status).toBe(403);
      expect((await post(alice, { model: 'gpt-fake', messages: msg, files: [{ type: 'file', id: 'nope' }] })).status).toBe(404);
      expect(openai.chats()).toHaveLength(0);
    });
  });
});
