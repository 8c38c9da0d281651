import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { startFakeOpenAI, type ChatBody, type FakeOpenAI } from '../fixtures/fake-openai';

const M = '/api/v1/memories';

/** The system prompt a chat request carried ('' without one). */
const systemOf = (body: ChatBody | undefined) => String(body?.messages?.find((m) => m.role === 'system')?.content ?? '');

/** Every `data:` payload of an SSE body, parsed (without [DONE]). */
function frames(text: string): any[] {
  return text
    .split('\n\n')
    .map((b) => b.trim())
    .filter((b) => b.startsWith('data: ') && b !== 'data: [DONE]')
    .map((b) => JSON.parse(b.slice(6)));
}

describe('memories', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let pending: TestUser;
  let openai: FakeOpenAI;
  const as = (u: TestUser) => server.as(u.token);
  const ask = (u: TestUser, content: string, extra: Record<string, unknown> = {}) =>
    as(u).post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content }], ...extra });

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin, 'user', 'Alice');
    bob = await buildUser(server, admin, 'user', 'Bob');
    pending = await buildUser(server, admin, 'pending', 'Pending');
    openai = await startFakeOpenAI({ models: ['gpt-fake'] });
    await as(admin).post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
    await as(admin).post('/api/v1/models/create', { id: 'native-tools', name: 'Native', base_model_id: 'gpt-fake', params: { function_calling: 'native' }, meta: {}, access_control: null });
  });
  afterAll(async () => {
    await openai.close();
    await server.close();
  });
  beforeEach(() => {
    openai.reply({ text: 'OK' });
  });

  it('adds, lists, changes and forgets a memory, oldest first, each one its owner’s', async () => {
    const added = await as(alice).post(`${M}/add`, { content: '  I work in Lyon as a nurse  ' });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ id: expect.any(String), user_id: alice.id, content: 'I work in Lyon as a nurse', created_at: expect.any(Number), updated_at: expect.any(Number) });
    const second = (await as(alice).post(`${M}/add`, { content: 'My favourite colour is teal' })).body;
    expect((await as(alice).get(`${M}/`)).body.map((m: { content: string }) => m.content)).toEqual(['I work in Lyon as a nurse', 'My favourite colour is teal']);
    const changed = await as(alice).post(`${M}/${second.id}/update`, { content: 'My favourite colour is dark teal' });
    expect(changed.body.content).toBe('My favourite colour is dark teal');
    const temp = (await as(alice).post(`${M}/add`, { content: 'I am at the dentist today' })).body;
    expect((await as(alice).delete(`${M}/${temp.id}`)).body).toBe(true);
    expect((await as(alice).delete(`${M}/${temp.id}`)).status).toBe(404);
    expect((await as(alice).get(`${M}/`)).body).toHaveLength(2);
  });

  it('never crosses people: lists, queries, changes and deletes reach only the caller’s own, admins included', async () => {
    await as(bob).post(`${M}/add`, { content: 'I live in Porto and sail on weekends' });
    const aliceMemory = (await as(alice).get(`${M}/`)).body[0];
    expect((await as(bob).get(`${M}/`)).body.map((m: { content: string }) => m.content)).toEqual(['I live in Porto and sail on weekends']);
    expect((await as(admin).get(`${M}/`)).body).toEqual([]);
    for (const intruder of [bob, admin]) {
      expect((await as(intruder).post(`${M}/${aliceMemory.id}/update`, { content: 'hijacked' })).status).toBe(404);
      expect((await as(intruder).delete(`${M}/${aliceMemory.id}`)).status).toBe(404);
      const query = await as(intruder).post(`${M}/query`, { content: 'Lyon nurse', k: 10 });
      expect(query.body.documents[0].join(' ')).not.toContain('Lyon');
    }
    // Wiping one's memories leaves everyone else's.
    expect((await as(bob).delete(`${M}/delete/user`)).body).toBe(true);
    expect((await as(bob).get(`${M}/`)).body).toEqual([]);
    expect((await as(alice).get(`${M}/`)).body).toHaveLength(2);
    expect((await as(alice).get(`${M}/${aliceMemory.id}`)).status).toBe(404); // no such route: nothing else reads them
  });

  it('queries the caller’s memories by relevance in Open WebUI’s result shape', async () => {
    const found = await as(alice).post(`${M}/query`, { content: 'Where do I work?', k: 2 });
    expect(found.status).toBe(200);
    expect(found.body.ids[0]).toHaveLength(2);
    expect(found.body.documents[0][0]).toBe('I work in Lyon as a nurse');
    expect(found.body.distances[0][0]).toBeGreaterThan(found.body.distances[0][1]);
    expect(found.body.metadatas[0][0]).toEqual({ created_at: expect.any(Number), updated_at: expect.any(Number) });
    expect((await as(alice).post(`${M}/query`, { content: 'colour' })).body.ids[0]).toHaveLength(1);
  });

  it('gives the model the relevant memories only with memory on, and says which were used', async () => {
    const off = await ask(alice, 'What is my favourite colour?');
    expect(off.status).toBe(200);
    expect(systemOf(openai.lastChat()?.body)).toBe('');
    expect(off.body.memories).toBeUndefined();

    const on = await ask(alice, 'What is my favourite colour?', { features: { memory: true } });
    expect(on.status).toBe(200);
    const system = systemOf(openai.lastChat()?.body);
    expect(system).toContain('My favourite colour is dark teal');
    expect(system).not.toContain('Lyon'); // below the threshold for this question
    expect(on.body.memories).toEqual([{ id: expect.any(String), content: 'My favourite colour is dark teal' }]);

    // Streamed: the memories frame comes before any text.
    const streamed = await ask(alice, 'What is my favourite colour?', { features: { memory: true }, stream: true });
    const all = frames(streamed.text);
    const at = all.findIndex((f) => f.memories);
    expect(at).toBeGreaterThanOrEqual(0);
    expect(all.findIndex((f) => f.choices?.[0]?.delta?.content)).toBeGreaterThan(at);

    // Nothing relevant: nothing added.
    await ask(alice, 'Tell me a joke about penguins', { features: { memory: true } });
    expect(systemOf(openai.lastChat()?.body)).toBe('');
  });

  it('keeps the model’s own system prompt first and works on /v1 too, for the caller’s memories only', async () => {
    await as(alice).post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Which colour do I like?' }], features: { memory: true } });
    expect(systemOf(openai.lastChat()?.body)).toMatch(/^Be brief\.\n\n.*dark teal/s);

    const key = (await as(alice).post('/api/v1/auths/api_key')).body.api_key;
    const v1 = await server.as(key).post('/v1/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'favourite colour?' }], features: { memory: true } });
    expect(v1.status).toBe(200);
    expect(systemOf(openai.lastChat()?.body)).toContain('dark teal');
    const bobOnV1 = await as(bob).post('/v1/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'favourite colour?' }], features: { memory: true } });
    expect(bobOnV1.status).toBe(200);
    expect(systemOf(openai.lastChat()?.body)).not.toContain('teal');
  });

  it('never shows memories in a shared chat or a chat export', async () => {
    const chat = (await as(alice).post('/api/v1/chats/new', {})).body;
    const answered = await as(alice).post('/api/chat/completions', { model: 'gpt-fake', chat_id: chat.id, messages: [{ role: 'user', content: 'My favourite colour?' }], features: { memory: true } });
    expect(answered.body.memories).toHaveLength(1);
    const shared = await as(alice).post(`/api/v1/chats/${chat.id}/share`);
    const seen = await as(bob).get(`/api/v1/chats/share/${shared.body.share_id ?? shared.body.id}`);
    expect(JSON.stringify(seen.body)).not.toContain('teal');
    const exported = await as(alice).get('/api/v1/chats/all');
    expect(exported.text).not.toContain('dark teal');
  });

  it('offers remember and recall to models calling tools natively, and they act on the caller’s memories', async () => {
    openai.replyOnce({ text: '', tool_calls: [{ name: 'remember', arguments: { content: 'I drink my coffee black' } }] });
    openai.replyOnce({ text: 'Noted.' });
    const answer = await as(alice).post('/api/chat/completions', { model: 'native-tools', messages: [{ role: 'user', content: 'Remember that I drink my coffee black' }], features: { memory: true } });
    expect(answer.status).toBe(200);
    const offered = (openai.chats().at(-2)?.body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
    expect(offered).toEqual(expect.arrayContaining(['remember', 'recall']));
    expect((await as(alice).get(`${M}/`)).body.map((m: { content: string }) => m.content)).toContain('I drink my coffee black');
    expect((await as(bob).get(`${M}/`)).body.map((m: { content: string }) => m.content)).not.toContain('I drink my coffee black');

    // Without memory on, no memory tools.
    await as(alice).post('/api/chat/completions', { model: 'native-tools', messages: [{ role: 'user', content: 'hello' }] });
    expect(openai.lastChat()?.body.tools).toBeUndefined();
  });

  it('proposes memories from a conversation with the task model, leaving out what is known', async () => {
    openai.replyOnce({ text: '{"memories": ["I drink my coffee black", "I have a dog called Rex"]}' });
    const suggested = await as(alice).post(`${M}/suggest`, { model: 'gpt-fake', messages: [{ role: 'user', content: 'My dog Rex needs a walk, and I drink my coffee black.' }] });
    expect(suggested.status).toBe(200);
    expect(suggested.body).toEqual({ suggestions: ['I have a dog called Rex'] });
  });

  it('is behind features.memories (the API and memory in chats), and refuses bad input and other callers', async () => {
    const defaults = (await as(admin).get('/api/v1/users/default/permissions')).body;
    await as(admin).post('/api/v1/users/default/permissions', { ...defaults, features: { ...defaults.features, memories: false } });
    try {
      const refused = await as(alice).get(`${M}/`);
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('MEMORIES_FORBIDDEN');
      expect((await as(alice).post(`${M}/add`, { nonsense: true })).status).toBe(403);
      const chat = await ask(alice, 'favourite colour?', { features: { memory: true } });
      expect(chat.status).toBe(403);
      expect((await ask(alice, 'favourite colour?')).status).toBe(200);
    } finally {
      await as(admin).post('/api/v1/users/default/permissions', defaults);
    }
    expect((await as(alice).post(`${M}/add`, { content: '' })).status).toBe(422);
    expect((await as(alice).post(`${M}/add`, { content: 'x'.repeat(2001) })).status).toBe(422);
    expect((await as(alice).post(`${M}/query`, { content: 'x', k: 0 })).status).toBe(422);
    expect((await as(alice).raw('POST', `${M}/add`, '{"content": ', { 'content-type': 'application/json' })).status).toBe(400);
    expect((await server.anon.get(`${M}/`)).status).toBe(401);
    expect((await as(pending).get(`${M}/`)).status).toBe(403);
  });
});
