import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TASK_CONFIG } from '../../server/contracts/tasks';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { startOpenApiServer, type OpenApiFixture } from '../fixtures/openapi-server';
import { signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';

/** Prompt-based function calling, for models without native tools. */
describe('tool calling through the prompt', () => {
  let server: TestServer;
  let admin: TestUser;
  let api: OpenApiFixture;
  let openai: FakeOpenAI;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    api = await startOpenApiServer({ key: 'k-123' });
    openai = await startFakeOpenAI({ key: 'sk-chat', models: ['gpt-fake'] });
    const as = server.as(admin.token);
    expect((await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: ['sk-chat'], COMPAT_API_CONFIGS: {} })).status).toBe(200);
    const tasks = { ...DEFAULT_TASK_CONFIG, ENABLE_TITLE_GENERATION: false, ENABLE_TAGS_GENERATION: false, ENABLE_FOLLOW_UP_GENERATION: false, TOOLS_FUNCTION_CALLING_PROMPT_TEMPLATE: 'Pick tools from {{TOOLS}} and answer JSON.' };
    expect((await as.post('/api/v1/tasks/config/update', tasks)).status).toBe(200);
    expect((await as.post('/api/v1/tools/create', { id: 'weather', name: 'Weather', type: 'openapi', config: { openapi_url: api.specUrl, api_key: 'k-123' } })).status).toBe(200);
    const model = { id: 'plain-helper', name: 'Plain helper', base_model_id: 'gpt-fake', params: { function_calling: 'prompt' }, meta: { toolIds: ['weather'] }, access_control: null, is_active: true };
    expect((await as.post('/api/v1/models/create', model)).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
    await api?.close();
    await openai?.close();
  });

  it('asks the model which tools to call with the template, runs them and answers from their results', async () => {
    openai.reset();
    openai.replyOnce({ text: 'Sure: {"tool_calls": [{"name": "getWeather", "parameters": {"city": "Oslo"}}]}' });
    openai.replyOnce({ text: '{"tool_calls": []}' });
    openai.replyOnce({ text: 'It is 21 degrees in Oslo.' });
    const res = await server.as(admin.token).post('/api/chat/completions', { model: 'plain-helper', messages: [{ role: 'user', content: 'Weather in Oslo?' }], stream: false });
    expect(res.status).toBe(200);
    expect(res.body.choices[0].message.content).toBe('It is 21 degrees in Oslo.');
    expect(api.requests.at(-1)).toMatchObject({ method: 'GET', path: '/weather/Oslo', authorization: 'Bearer k-123' });
    const [ask, , answer] = openai.chats();
    expect(ask!.body.tools).toBeUndefined();
    expect(ask!.body.messages[0].content).toContain('Pick tools from');
    expect(ask!.body.messages[0].content).toContain('getWeather');
    expect(answer!.body.tools).toBeUndefined();
    const results = answer!.body.messages.find((m: { role: string; content: string }) => m.role === 'system' && m.content.includes('Results of the tools'));
    expect(results.content).toContain('"temperature":21');
  });

  it('falls back to the prompt when the provider refuses native tools, in a stream', async () => {
    openai.reset();
    openai.replyOnce({ status: 400, error: 'This model does not support tools' });
    openai.replyOnce({ text: '{"tool_calls": [{"name": "getWeather", "parameters": {"city": "Bergen"}}]}' });
    openai.replyOnce({ text: '{"tool_calls": []}' });
    openai.replyOnce({ text: 'Rain in Bergen, as usual.' });
    const res = await server.as(admin.token).post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'Weather in Bergen?' }], tool_ids: ['weather'], stream: true });
    expect(res.status).toBe(200);
    const frames = res.text.split('\n\n').filter((f) => f.startsWith('data: {')).map((f) => JSON.parse(f.slice(6)));
    const text = frames.map((f) => f.choices?.[0]?.delta?.content ?? '').join('');
    expect(text).toBe('Rain in Bergen, as usual.');
    expect(frames.some((f) => f.status?.description === 'Ran getWeather')).toBe(true);
    expect(api.requests.at(-1)).toMatchObject({ path: '/weather/Bergen' });
    expect(openai.chats()[0]!.body.tools).toBeDefined();
    expect(openai.chats().at(-1)!.body.tools).toBeUndefined();
  });
});
