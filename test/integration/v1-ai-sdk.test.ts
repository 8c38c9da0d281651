import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError, embedMany, generateText, jsonSchema, streamText, tool } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { DEFAULT_TASK_CONFIG } from '../../server/contracts/tasks';
import { OFFLINE_DIMS } from '../../server/retrieval/embedding/offline-embedder';

/** A second, independent OpenAI-compatible client: the Vercel AI SDK's openai-compatible provider. */
describe('the /v1 API through the Vercel AI SDK', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let upstream: FakeOpenAI;
  let parley: ReturnType<typeof createOpenAICompatible>;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin, 'user', 'Alice');
    upstream = await startFakeOpenAI({ key: 'sk-upstream', models: ['gpt-fake'] });
    const as = server.as(admin.token);
    await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: [upstream.url], COMPAT_API_KEYS: ['sk-upstream'], COMPAT_API_CONFIGS: {} });
    const off = { ...DEFAULT_TASK_CONFIG, ENABLE_TITLE_GENERATION: false, ENABLE_TAGS_GENERATION: false, ENABLE_FOLLOW_UP_GENERATION: false };
    expect((await as.post('/api/v1/tasks/config/update', off)).status).toBe(200);
    expect((await as.post('/api/v1/models/create', { id: 'helper', name: 'Helper', base_model_id: 'gpt-fake', params: { system: 'You are Helper.' }, meta: {}, access_control: null })).status).toBe(200);
    const key = await server.as(alice.token).post('/api/v1/auths/api_key');
    parley = createOpenAICompatible({ name: 'parley', baseURL: `${server.url}/v1`, apiKey: key.body.api_key, includeUsage: true });
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });
  beforeEach(() => upstream.reset());

  it('generates text with usage from a custom model', async () => {
    upstream.reply({ text: 'Hi, I am Helper.', usage: { prompt_tokens: 6, completion_tokens: 5, total_tokens: 11 } });
    const result = await generateText({ model: parley('helper'), prompt: 'Who are you?', maxRetries: 0 });
    expect(result.text).toBe('Hi, I am Helper.');
    expect(result.finishReason).toBe('stop');
    expect(result.usage).toMatchObject({ inputTokens: 6, outputTokens: 5, totalTokens: 11 });
    expect(upstream.lastChat()?.body.messages[0]).toEqual({ role: 'system', content: 'You are Helper.' });
  });

  it('streams text and reports usage at the end', async () => {
    upstream.reply({ pieces: ['One ', 'two ', 'three'], usage: { prompt_tokens: 3, completion_tokens: 3, total_tokens: 6 } });
    const result = streamText({ model: parley('gpt-fake'), prompt: 'Count', maxRetries: 0 });
    let text = '';
    for await (const piece of result.textStream) text += piece;
    expect(text).toBe('One two three');
    expect(await result.usage).toMatchObject({ inputTokens: 3, outputTokens: 3, totalTokens: 6 });
  });

  it('returns tool calls for tools the caller defines', async () => {
    upstream.replyOnce({ text: '', tool_calls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] });
    const result = await generateText({
      model: parley('gpt-fake'),
      prompt: 'Weather in Oslo?',
      maxRetries: 0,
      tools: { get_weather: tool({ description: 'Weather for a city', inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }) }) },
    });
    expect(result.finishReason).toBe('tool-calls');
    expect(result.toolCalls).toEqual([expect.objectContaining({ toolName: 'get_weather', input: { city: 'Oslo' } })]);
    expect(upstream.lastChat()?.body.tools[0].function.name).toBe('get_weather');
  });

  it('embeds many texts with the configured engine', async () => {
    const { embeddings } = await embedMany({ model: parley.embeddingModel('any-embedder'), values: ['alpha', 'beta'], maxRetries: 0 });
    expect(embeddings).toHaveLength(2);
    expect(embeddings[0]).toHaveLength(OFFLINE_DIMS);
  });

  it('surfaces /v1 errors as API call errors with the status', async () => {
    const failure = await generateText({ model: parley('no-such-model'), prompt: 'Hi', maxRetries: 0 }).catch((e: unknown) => e);
    expect(APICallError.isInstance(failure)).toBe(true);
    expect((failure as APICallError).statusCode).toBe(404);
    expect((failure as APICallError).message).toMatch(/no-such-model/);
  });
});
