import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { lastUserText, startFakeOpenAI, type ChatBody, type FakeOpenAI, type FakeReply } from '../fixtures/fake-openai';
import { DEFAULT_TASK_CONFIG } from '../../server/contracts/tasks';

/** Answers task prompts with messy-but-parseable JSON, and chats with a plain answer. */
function messyModel(body: ChatBody): FakeReply {
  const text = lastUserText(body);
  if (text.includes('short title')) return { text: 'Sure! Here it is:\n```json\n{"title": "Bread Baking Basics"}\n```' };
  if (text.includes('subject tags')) return { text: '{\u201ctags\u201d: [\u201cFood\u201d, \u201cBaking\u201d,]}' };
  if (text.includes('might ask next')) return { text: '<think>maybe {"follow_ups": ["no"]}</think>\n{"follow_ups": ["How long should it proof?", "Which flour is best?"]}' };
  if (text.includes('Continue the text')) return { text: '{"text": " with a sourdough starter"}' };
  if (text.includes('queries')) return { text: '{"queries": ["sourdough hydration", "bread proofing time"]}' };
  return { text: 'Knead the dough for ten minutes.' };
}

describe('task pipeline', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let openai: FakeOpenAI;
  const taskRequests = () => openai.chats().filter((r) => lastUserText(r.body).includes('### Task'));
  const setConfig = (patch: Partial<typeof DEFAULT_TASK_CONFIG>) => server.as(admin.token).post('/api/v1/tasks/config/update', { ...DEFAULT_TASK_CONFIG, ...patch });
  const chatWith = async (user: TestUser, body: Record<string, unknown>) => {
    const res = await server.as(user.token).post('/api/chat/completions', { model: 'gpt-fake', stream: true, ...body });
    expect(res.status).toBe(200);
    await server.services.completions.idle();
    return res;
  };

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin, 'user', 'Alice');
    openai = await startFakeOpenAI({ key: 'sk-tasks', models: ['gpt-fake', 'gpt-task'] });
    await server.as(admin.token).post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: ['sk-tasks'], COMPAT_API_CONFIGS: {} });
  });
  const sockets: Socket[] = [];
  /** A real socket.io connection of the user, once accepted. */
  function connect(token: string): Promise<Socket> {
    const socket = io(server.url, { transports: ['websocket'], reconnection: false, forceNew: true, auth: { token } });
    sockets.push(socket);
    return new Promise((resolve, reject) => {
      socket.once('connect', () => resolve(socket));
      socket.once('connect_error', reject);
    });
  }

  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await server?.close();
    await openai?.close();
  });
  beforeEach(async () => {
    openai.reset();
    openai.reply(messyModel);
    expect((await setConfig({})).status).toBe(200);
  });

  describe('config', () => {
    it('shows the defaults to admins only', async () => {
      const res = await server.as(admin.token).get('/api/v1/tasks/config');
      expect(res.status).toBe(200);
      expect(res.body).toEqual(DEFAULT_TASK_CONFIG);
      expect((await server.as(alice.token).get('/api/v1/tasks/config')).status).toBe(403);
      expect((await server.as(alice.token).post('/api/v1/tasks/config/update', DEFAULT_TASK_CONFIG)).status).toBe(403);
      expect((await server.anon.get('/api/v1/tasks/config')).status).toBe(401);
    });

    it('replaces the whole config and keeps it', async () => {
      const next = { ...DEFAULT_TASK_CONFIG, TASK_MODEL: 'gpt-task', ENABLE_TAGS_GENERATION: false, AUTOCOMPLETE_GENERATION_INPUT_MAX_LENGTH: 200 };
      const res = await server.as(admin.token).post('/api/v1/tasks/config/update', next);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(next);
      expect((await server.as(admin.token).get('/api/v1/tasks/config')).body).toEqual(next);
    });

    it('refuses a partial or invalid config with 400 naming the field', async () => {
      const { ENABLE_TITLE_GENERATION: _omit, ...partial } = DEFAULT_TASK_CONFIG;
      const missing = await server.as(admin.token).post('/api/v1/tasks/config/update', partial);
      expect(missing.status).toBe(400);
      expect(missing.body.detail).toMatch(/ENABLE_TITLE_GENERATION/);
      const bad = await setConfig({ AUTOCOMPLETE_GENERATION_INPUT_MAX_LENGTH: -5 });
      expect(bad.status).toBe(400);
      expect(bad.body.detail).toMatch(/AUTOCOMPLETE_GENERATION_INPUT_MAX_LENGTH/);
    });
  });

  describe('endpoints', () => {
    const messages = [
      { role: 'user', content: 'How do I bake bread?' },
      { role: 'assistant', content: 'Knead the dough for ten minutes.' },
    ];

    it('POST /tasks/title answers {title} parsed from a fenced JSON answer', async () => {
      const res = await server.as(alice.token).post('/api/v1/tasks/title', { model: 'gpt-fake', messages });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ title: 'Bread Baking Basics' });
    });

    it('POST /tasks/follow-up answers an array of strings, reading past a reasoning block', async () => {
      const res = await server.as(alice.token).post('/api/v1/tasks/follow-up', { model: 'gpt-fake', messages: messages.slice(0, 1), response: 'Knead it.' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(['How long should it proof?', 'Which flour is best?']);
      expect(lastUserText(openai.lastChat()!.body)).toContain('ASSISTANT: Knead it.');
    });

    it('uses TASK_MODEL when no model is sent, and 400 when there is none', async () => {
      const none = await server.as(alice.token).post('/api/v1/tasks/title', { messages });
      expect(none.status).toBe(400);
      expect(none.body.detail).toMatch(/TASK_MODEL/);
      await setConfig({ TASK_MODEL: 'gpt-task' });
      const res = await server.as(alice.token).post('/api/v1/tasks/title', { messages });
      expect(res.status).toBe(200);
      expect(openai.lastChat()!.body.model).toBe('gpt-task');
    });

    it('answers the first words of the question as title, without a model call, when title generation is off', async () => {
      await setConfig({ ENABLE_TITLE_GENERATION: false, ENABLE_FOLLOW_UP_GENERATION: false });
      expect((await server.as(alice.token).post('/api/v1/tasks/title', { messages })).body).toEqual({ title: 'How do I bake bread?' });
      expect((await server.as(alice.token).post('/api/v1/tasks/follow-up', { messages })).body).toEqual([]);
      expect(openai.chats()).toHaveLength(0);
    });

    it('autocompletes, refusing input over AUTOCOMPLETE_GENERATION_INPUT_MAX_LENGTH', async () => {
      const ok = await server.as(alice.token).post('/api/v1/tasks/autocomplete', { model: 'gpt-fake', prompt: 'I want to bake bread' });
      expect(ok.body).toEqual({ text: ' with a sourdough starter' });
      await setConfig({ AUTOCOMPLETE_GENERATION_INPUT_MAX_LENGTH: 10 });
      const long = await server.as(alice.token).post('/api/v1/tasks/autocomplete', { model: 'gpt-fake', prompt: 'I want to bake bread' });
      expect(long.status).toBe(400);
      expect(long.body.detail).toMatch(/at most 10 characters/);
      await setConfig({ ENABLE_AUTOCOMPLETE_GENERATION: false });
      expect((await server.as(alice.token).post('/api/v1/tasks/autocomplete', { model: 'gpt-fake', prompt: 'x' })).status).toBe(400);
    });

    it('generates retrieval queries, falling back to the last question when turned off or failing', async () => {
      const res = await server.as(alice.token).post('/api/v1/tasks/queries', { model: 'gpt-fake', messages });
      expect(res.body).toEqual({ queries: ['sourdough hydration', 'bread proofing time'] });
      openai.reply({ status: 500, error: 'down' });
      expect((await server.as(alice.token).post('/api/v1/tasks/queries', { model: 'gpt-fake', messages })).body).toEqual({ queries: ['How do I bake bread?'] });
      await setConfig({ ENABLE_RETRIEVAL_QUERY_GENERATION: false });
      expect((await server.as(alice.token).post('/api/v1/tasks/queries', { model: 'gpt-fake', messages })).body).toEqual({ queries: ['How do I bake bread?'] });
    });

    it('answers 502 when the task model fails, and 400/422 for bad bodies', async () => {
      openai.reply({ status: 500, error: 'down' });
      const failed = await server.as(alice.token).post('/api/v1/tasks/title', { model: 'gpt-fake', messages });
      expect(failed.status).toBe(502);
      expect((await server.as(alice.token).post('/api/v1/tasks/title', { model: 'gpt-fake', messages: [] })).status).toBe(422);
      expect((await server.as(alice.token).post('/api/v1/tasks/follow-up', { messages: 'x' })).status).toBe(422);
      expect((await server.anon.post('/api/v1/tasks/title', { messages })).status).toBe(401);
    });
  });

  describe('after a chat answer', () => {
    it('titles the chat after its first answer, tags it, and saves follow-ups on the answer', async () => {
      const chat = (await server.as(alice.token).post('/api/v1/chats/new', {})).body.id;
      await chatWith(alice, { messages: [{ role: 'user', content: 'How do I bake bread?' }], chat_id: chat });
      const saved = (await server.as(alice.token).get(`/api/v1/chats/${chat}`)).body;
      expect(saved.title).toBe('Bread Baking Basics');
      expect(saved.tags).toEqual(['Food', 'Baking']);
      expect(saved.messages[1].follow_ups).toEqual(['How long should it proof?', 'Which flour is best?']);
      expect(taskRequests()).toHaveLength(3);

      // The second answer gets follow-ups only: no new title or tags.
      openai.reset();
      openai.reply(messyModel);
      await chatWith(alice, {
        messages: [
          { role: 'user', content: 'How do I bake bread?' },
          { role: 'assistant', content: 'Knead the dough for ten minutes.' },
          { role: 'user', content: 'And then?' },
        ],
        chat_id: chat,
      });
      expect(taskRequests()).toHaveLength(1);
      expect(lastUserText(taskRequests()[0]!.body)).toContain('might ask next');
    });

    it('keeps a title the owner chose', async () => {
      const chat = (await server.as(alice.token).post('/api/v1/chats/new', { title: 'My bread notes' })).body.id;
      await chatWith(alice, { messages: [{ role: 'user', content: 'How do I bake bread?' }], chat_id: chat });
      expect((await server.as(alice.token).get(`/api/v1/chats/${chat}`)).body.title).toBe('My bread notes');
    });

    it('sends task prompts to TASK_MODEL instead of the chat model', async () => {
      await setConfig({ TASK_MODEL: 'gpt-task' });
      const chat = (await server.as(alice.token).post('/api/v1/chats/new', {})).body.id;
      await chatWith(alice, { messages: [{ role: 'user', content: 'How do I bake bread?' }], chat_id: chat });
      const chats = openai.chats();
      expect(chats[0]!.body.model).toBe('gpt-fake');
      expect(taskRequests().map((r) => r.body.model)).toEqual(['gpt-task', 'gpt-task', 'gpt-task']);
    });

    it('never fails the chat when a task fails, and names it after its question, pushed to the owner like a generated title', async () => {
      openai.reply((body) => (lastUserText(body).includes('### Task') ? { status: 500, error: 'task model down' } : { text: 'Still here.' }));
      const socket = await connect(alice.token);
      const pushed = new Promise<{ chat_id: string; title: string }>((resolve) => socket.once('chat:title', resolve));
      const chat = (await server.as(alice.token).post('/api/v1/chats/new', {})).body.id;
      const res = await chatWith(alice, { messages: [{ role: 'user', content: 'Hello?' }], chat_id: chat });
      const frames = res.text.split('\n\n').filter((f) => f.startsWith('data: {')).map((f) => JSON.parse(f.slice(6)));
      expect(frames.map((f) => f.choices[0]?.delta?.content ?? '').join('')).toBe('Still here.');
      expect(res.text.trim().endsWith('data: [DONE]')).toBe(true);
      const saved = (await server.as(alice.token).get(`/api/v1/chats/${chat}`)).body;
      expect(saved.title).toBe('Hello?');
      expect(await pushed).toMatchObject({ chat_id: chat, title: 'Hello?' });
      expect(saved.messages[1]).toMatchObject({ content: 'Still here.', status: 'complete', follow_ups: [] });
      expect((await server.as(alice.token).get('/api/v1/chats/')).body.find((c: { id: string }) => c.id === chat).title).toBe('Hello?');
    });

    it('names the chat after the start of its first question, cut at a word, when the task model answers nothing usable', async () => {
      const question = 'Could you explain how sourdough fermentation works in a cold kitchen during the winter months?';
      for (const junk of ['', '   ', '```json\n{}\n```', '{"title": 42}', '...', '<think>hmm</think>']) {
        openai.reply((body) => (lastUserText(body).includes('short title') ? { text: junk } : { text: 'Slowly.' }));
        const chat = (await server.as(alice.token).post('/api/v1/chats/new', {})).body.id;
        await chatWith(alice, { messages: [{ role: 'user', content: question }], chat_id: chat });
        const title = (await server.as(alice.token).get(`/api/v1/chats/${chat}`)).body.title as string;
        expect(title, `task answer ${JSON.stringify(junk)}`).toBe('Could you explain how sourdough fermentation…');
      }
    });

    it('keeps the fallback title on later answers, and never names over a rename', async () => {
      openai.reply((body) => (lastUserText(body).includes('### Task') ? { status: 500, error: 'task model down' } : { text: 'Still here.' }));
      const chat = (await server.as(alice.token).post('/api/v1/chats/new', {})).body.id;
      await chatWith(alice, { messages: [{ role: 'user', content: 'How do I bake bread?' }], chat_id: chat });
      expect((await server.as(alice.token).get(`/api/v1/chats/${chat}`)).body.title).toBe('How do I bake bread?');
      openai.reset();
      openai.reply(messyModel);
      const again = [{ role: 'user', content: 'How do I bake bread?' }, { role: 'assistant', content: 'Still here.' }, { role: 'user', content: 'Tell me more' }];
      await chatWith(alice, { messages: again, chat_id: chat });
      expect((await server.as(alice.token).get(`/api/v1/chats/${chat}`)).body.title).toBe('How do I bake bread?');

      const renamed = (await server.as(alice.token).post('/api/v1/chats/new', {})).body.id;
      expect((await server.as(alice.token).post(`/api/v1/chats/${renamed}`, { title: 'Sourdough diary' })).status).toBe(200);
      await chatWith(alice, { messages: [{ role: 'user', content: 'How do I bake bread?' }], chat_id: renamed });
      expect((await server.as(alice.token).get(`/api/v1/chats/${renamed}`)).body.title).toBe('Sourdough diary');
    });

    it('runs no tasks for a completion without chat_id', async () => {
      await chatWith(alice, { messages: [{ role: 'user', content: 'Hello?' }] });
      expect(taskRequests()).toHaveLength(0);
    });
  });
});
