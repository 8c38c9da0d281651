import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { DEFAULT_TASK_CONFIG } from '../../server/contracts/tasks';

/** The official openai client, pointed at Parley's /v1 with a Parley API key. */
describe('the OpenAI-compatible /v1 API through the openai SDK', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let upstream: FakeOpenAI;
  let client: OpenAI;

  const weather = {
    type: 'function' as const,
    function: { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
  };

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin, 'user', 'Alice');
    upstream = await startFakeOpenAI({ key: 'sk-upstream', models: ['gpt-fake'] });
    const as = server.as(admin.token);
    expect((await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: [upstream.url], COMPAT_API_KEYS: ['sk-upstream'], COMPAT_API_CONFIGS: {} })).status).toBe(200);
    const off = { ...DEFAULT_TASK_CONFIG, ENABLE_TITLE_GENERATION: false, ENABLE_TAGS_GENERATION: false, ENABLE_FOLLOW_UP_GENERATION: false };
    expect((await as.post('/api/v1/tasks/config/update', off)).status).toBe(200);
    const helper = await as.post('/api/v1/models/create', { id: 'helper', name: 'Helper', base_model_id: 'gpt-fake', params: { system: 'You are Helper.' }, meta: {}, access_control: null });
    expect(helper.status).toBe(200);
    const secret = await as.post('/api/v1/models/create', {
      id: 'board-only',
      name: 'Board only',
      base_model_id: 'gpt-fake',
      params: {},
      meta: {},
      access_control: { read: { group_ids: [], user_ids: [] }, write: { group_ids: [], user_ids: [] } },
    });
    expect(secret.status).toBe(200);
    const key = await server.as(alice.token).post('/api/v1/auths/api_key');
    expect(key.status).toBe(200);
    expect(key.body.api_key).toMatch(/^sk-/);
    client = new OpenAI({ apiKey: key.body.api_key, baseURL: `${server.url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });
  beforeEach(() => upstream.reset());

  it('lists the models the key holder may use, custom ones included and private ones left out', async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toContain('gpt-fake');
    expect(ids).toContain('helper');
    expect(ids).not.toContain('board-only');
    const one = await client.models.retrieve('helper');
    expect(one).toMatchObject({ id: 'helper', object: 'model', owned_by: 'parley' });
  });

  it('answers a chat completion in one piece with usage, keeping the provider key inside Parley', async () => {
    upstream.reply({ text: 'Hello from upstream', usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 } });
    const answer = await client.chat.completions.create({ model: 'gpt-fake', messages: [{ role: 'user', content: 'Hi' }] });
    expect(answer.object).toBe('chat.completion');
    expect(answer.choices[0]?.message.content).toBe('Hello from upstream');
    expect(answer.choices[0]?.finish_reason).toBe('stop');
    expect(answer.usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 });
    expect(upstream.lastChat()?.headers.authorization).toBe('Bearer sk-upstream');
  });

  it('streams text and, with include_usage, a last chunk with token counts', async () => {
    upstream.reply({ pieces: ['Hel', 'lo ', 'world'], usage: { prompt_tokens: 4, completion_tokens: 3, total_tokens: 7 } });
    const stream = await client.chat.completions.create({ model: 'gpt-fake', messages: [{ role: 'user', content: 'Hi' }], stream: true, stream_options: { include_usage: true } });
    let text = '';
    let finish: string | null | undefined;
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('Hello world');
    expect(finish).toBe('stop');
    expect(usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 3, total_tokens: 7 });
  });

  it('leaves the usage chunk out when the caller did not ask for it', async () => {
    upstream.reply({ pieces: ['a', 'b'] });
    const stream = await client.chat.completions.create({ model: 'gpt-fake', messages: [{ role: 'user', content: 'Hi' }], stream: true });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.some((c) => c.usage)).toBe(false);
  });

  it("applies a custom model's system prompt before the caller's messages", async () => {
    upstream.reply({ text: 'ok' });
    await client.chat.completions.create({ model: 'helper', messages: [{ role: 'developer', content: 'Be brief.' }, { role: 'user', content: 'Hi' }] });
    const sent = upstream.lastChat()?.body;
    expect(sent.model).toBe('gpt-fake');
    expect(sent.messages[0]).toEqual({ role: 'system', content: 'You are Helper.\n\nBe brief.' });
  });

  it('passes the caller’s tools through and returns the tool calls for the caller to run', async () => {
    upstream.replyOnce({ text: '', tool_calls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] });
    const answer = await client.chat.completions.create({ model: 'gpt-fake', messages: [{ role: 'user', content: 'Weather in Oslo?' }], tools: [weather], tool_choice: 'auto' });
    const sent = upstream.lastChat()?.body;
    expect(sent.tools).toEqual([weather]);
    expect(sent.tool_choice).toBe('auto');
    const choice = answer.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    const call = choice.message.tool_calls?.[0];
    expect(call?.type).toBe('function');
    if (call?.type !== 'function') throw new Error('expected a function call');
    expect(call.function.name).toBe('get_weather');
    expect(JSON.parse(call.function.arguments)).toEqual({ city: 'Oslo' });

    // The caller runs the function and sends its result back.
    upstream.replyOnce({ text: 'It is sunny in Oslo.' });
    const followUp = await client.chat.completions.create({
      model: 'gpt-fake',
      tools: [weather],
      messages: [
        { role: 'user', content: 'Weather in Oslo?' },
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'tool', tool_call_id: call.id, content: '{"sky":"sunny"}' },
      ],
    });
    expect(followUp.choices[0]?.message.content).toBe('It is sunny in Oslo.');
    const resent = upstream.lastChat()?.body;
    expect(resent.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: call.id, content: '{"sky":"sunny"}' });
  });

  it('streams tool calls the SDK assembles into a complete call', async () => {
    upstream.replyOnce({ text: '', tool_calls: [{ name: 'get_weather', arguments: { city: 'Bergen' } }] });
    const stream = client.chat.completions.stream({ model: 'gpt-fake', messages: [{ role: 'user', content: 'Weather in Bergen?' }], tools: [weather] });
    const final = await stream.finalChatCompletion();
    const call = final.choices[0]?.message.tool_calls?.[0];
    expect(final.choices[0]?.finish_reason).toBe('tool_calls');
    if (call?.type !== 'function') throw new Error('expected a function call');
    expect(JSON.parse(call.function.arguments)).toEqual({ city: 'Bergen' });
  });

  it('raises typed SDK errors from OpenAI-shaped error bodies', async () => {
    const badKey = new OpenAI({ apiKey: 'sk-not-a-key', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const unauth = await badKey.models.list().catch((e: unknown) => e);
    expect(unauth).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((unauth as InstanceType<typeof OpenAI.AuthenticationError>).type).toBe('authentication_error');

    const missing = await client.chat.completions.create({ model: 'board-only', messages: [{ role: 'user', content: 'Hi' }] }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    expect((missing as InstanceType<typeof OpenAI.NotFoundError>).code).toBe('model_not_found');
    expect(upstream.chats()).toHaveLength(0);

    const bad = await client.chat.completions.create({ model: 'gpt-fake', messages: [] }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(OpenAI.BadRequestError);
    expect((bad as InstanceType<typeof OpenAI.BadRequestError>).message).toMatch(/messages/);

    upstream.replyOnce({ status: 500, error: 'upstream broke' });
    const failed = await client.chat.completions.create({ model: 'gpt-fake', messages: [{ role: 'user', content: 'Hi' }] }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(OpenAI.APIError);
    expect((failed as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
  });

  it('answers OpenAI-shaped errors on /v1 only; the rest of the API keeps {detail}', async () => {
    const v1 = await server.anon.get('/v1/models');
    expect(v1.status).toBe(401);
    expect(v1.body).toMatchObject({ error: { type: 'authentication_error', message: expect.any(String) } });
    const unknown = await server.as(alice.token).get('/v1/no-such-thing');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.type).toBe('not_found_error');
    const api = await server.anon.get('/api/v1/models/list');
    expect(api.status).toBe(401);
    expect(api.body).toEqual({ detail: expect.any(String), code: 'NOT_AUTHENTICATED' });
  });

  it('accepts a browser session as well as an API key', async () => {
    upstream.reply({ text: 'session ok' });
    const res = await server.as(alice.token).post('/v1/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'Hi' }] });
    expect(res.status).toBe(200);
    expect(res.body.choices[0].message.content).toBe('session ok');
  });
});
