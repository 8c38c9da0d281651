import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { startOpenApiServer, type OpenApiFixture } from '../fixtures/openapi-server';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { DEFAULT_TASK_CONFIG } from '../../server/contracts/tasks';

describe('tool registry', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let api: OpenApiFixture;
  let openai: FakeOpenAI;

  /** One chat turn where the model calls `name(args)` from `toolIds`; answers the tool result it got back. */
  async function callThroughChat(toolIds: string[], name: string, args: Record<string, unknown>, stream = false): Promise<string> {
    openai.reset();
    openai.replyOnce({ text: '', tool_calls: [{ id: 'call_1', name, arguments: args }] });
    openai.replyOnce({ text: 'done' });
    const res = await server.as(alice.token).post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'go' }], tool_ids: toolIds, stream });
    expect(res.status).toBe(200);
    return openai.chats()[1]!.body.messages.find((m: { role: string }) => m.role === 'tool').content as string;
  }

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin, 'user', 'Alice');
    api = await startOpenApiServer({ key: 'k-123' });
    openai = await startFakeOpenAI({ key: 'sk-chat', models: ['gpt-fake'] });
    const as = server.as(admin.token);
    expect((await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: ['sk-chat'], COMPAT_API_CONFIGS: {} })).status).toBe(200);
    const off = { ...DEFAULT_TASK_CONFIG, ENABLE_TITLE_GENERATION: false, ENABLE_TAGS_GENERATION: false, ENABLE_FOLLOW_UP_GENERATION: false };
    expect((await as.post('/api/v1/tasks/config/update', off)).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
    await api?.close();
    await openai?.close();
  });

  it('calls OpenAPI operations the model asks for, with the key, path, query and JSON body', async () => {
    const created = await server.as(admin.token).post('/api/v1/tools/create', { id: 'weather', name: 'Weather', type: 'openapi', config: { openapi_url: api.specUrl, api_key: 'k-123' } });
    expect(created.status).toBe(200);
    const weather = JSON.parse(await callThroughChat(['weather'], 'getWeather', { city: 'Saint Malo', units: 'imperial' }));
    expect(weather).toEqual({ city: 'Saint Malo', temperature: 21, units: 'imperial' });
    expect(api.requests.at(-1)).toMatchObject({ method: 'GET', path: '/weather/Saint%20Malo', query: { units: 'imperial' }, authorization: 'Bearer k-123' });
    expect(openai.chats()[0]!.body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(['getWeather', 'createNote', 'failAlways']);

    expect(JSON.parse(await callThroughChat(['weather'], 'createNote', { title: 'Buy milk', body: 'two litres' }, true))).toEqual({ id: 1, title: 'Buy milk' });
    expect(api.requests.at(-1)).toMatchObject({ method: 'POST', path: '/notes', body: { title: 'Buy milk', body: 'two litres' } });

    expect(await callThroughChat(['weather'], 'failAlways', {})).toMatch(/HTTP 500.*broken on purpose/);
    expect(await callThroughChat(['weather'], 'getWeather', {})).toMatch(/Missing required argument 'city'/);
    expect(await callThroughChat(['weather'], 'nope', {})).toMatch(/No tool named nope/);
  });

  it('calls an api tool, and leaves out disabled tools', async () => {
    const as = server.as(admin.token);
    const created = await as.post('/api/v1/tools/create', {
      id: 'city_weather',
      name: 'city_weather',
      type: 'api',
      config: { url: `${api.url}/weather/{city}`, method: 'GET', api_key: 'k-123', parameters: { type: 'object', properties: { city: { type: 'string' }, units: { type: 'string' } }, required: ['city'] } },
    });
    expect(created.status).toBe(200);
    expect(JSON.parse(await callThroughChat(['city_weather'], 'city_weather', { city: 'Oslo', units: 'metric' }))).toMatchObject({ city: 'Oslo', units: 'metric' });
    expect(api.requests.at(-1)).toMatchObject({ path: '/weather/Oslo', query: { units: 'metric' }, authorization: 'Bearer k-123' });

    await as.post('/api/v1/tools/city_weather/update', { config: { url: `${api.url}/weather/{city}`, enabled: false } });
    openai.reset();
    const res = await server.as(alice.token).post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'hi' }], tool_ids: ['city_weather'] });
    expect(res.status).toBe(200);
    expect(openai.chats()[0]!.body.tools).toBeUndefined();
  });

  it('creates an OpenAPI tool with one function per operation, and lists, reads, updates and deletes it', async () => {
    const as = server.as(admin.token);
    const created = await as.post('/api/v1/tools/create', { name: 'Weather', type: 'openapi', description: 'Weather API', config: { openapi_url: api.specUrl, api_key: 'k-123' } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ id: expect.any(String), name: 'Weather', type: 'openapi', created_at: expect.any(Number) });
    const id = created.body.id as string;
    expect(created.body.specs.map((s: { name: string }) => s.name)).toEqual(['getWeather', 'createNote', 'failAlways']);
    const note = created.body.specs.find((s: { name: string }) => s.name === 'createNote');
    expect(note.parameters).toMatchObject({ type: 'object', properties: { title: { type: 'string' } }, required: ['title'] });

    const list = await server.as(alice.token).get('/api/v1/tools');
    expect(list.status).toBe(200);
    expect(list.body).toContainEqual({ id, name: 'Weather', type: 'openapi', description: 'Weather API', enabled: true, created_at: created.body.created_at });

    const asAdmin = await as.get(`/api/v1/tools/${id}`);
    expect(asAdmin.body).toMatchObject({ id, name: 'Weather', type: 'openapi', description: 'Weather API', config: { openapi_url: api.specUrl, api_key: 'k-123' } });
    const asAlice = await server.as(alice.token).get(`/api/v1/tools/${id}`);
    expect(asAlice.status).toBe(200);
    expect(asAlice.body.config.api_key).toBeUndefined();

    const updated = await as.post(`/api/v1/tools/${id}/update`, { config: { openapi_url: api.specUrl, enabled: false } });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ id, config: { openapi_url: api.specUrl, enabled: false, api_key: 'k-123' } });
    expect((await as.get('/api/v1/tools')).body.find((t: { id: string }) => t.id === id).enabled).toBe(false);

    const deleted = await as.delete(`/api/v1/tools/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toBe(true);
    expect((await as.get(`/api/v1/tools/${id}`)).status).toBe(404);
    expect(await server.services.secrets.list(`tool:${id}:`)).toEqual([]);
  });

  it('creates an api tool whose single function comes from its config', async () => {
    const res = await server.as(admin.token).post('/api/v1/tools/create', {
      id: 'weather_api',
      name: 'City weather',
      type: 'api',
      description: 'Weather of one city',
      config: { url: `${api.url}/weather/{city}`, method: 'GET', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: 'weather_api', type: 'api' });
    expect(res.body.specs).toEqual([{ name: 'City_weather', description: 'Weather of one city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }]);
  });

  it('refuses tool creation to non-admins with 403, before reading the body', async () => {
    const res = await server.as(alice.token).post('/api/v1/tools/create', { nonsense: true });
    expect(res.status).toBe(403);
    expect(res.body.detail).toEqual(expect.any(String));
    expect((await server.anon.get('/api/v1/tools')).status).toBe(401);
  });

  it('answers 400 naming the problem for an invalid tool configuration', async () => {
    const as = server.as(admin.token);
    const missing = await as.post('/api/v1/tools/create', { name: 'X', type: 'openapi', config: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toMatch(/openapi_url/);
    const unreachable = await as.post('/api/v1/tools/create', { name: 'X', type: 'openapi', config: { openapi_url: 'http://127.0.0.1:9/openapi.json' } });
    expect(unreachable.status).toBe(400);
    expect(unreachable.body.detail).toMatch(/Could not load the OpenAPI document/);
    const notSpec = await as.post('/api/v1/tools/create', { name: 'X', type: 'openapi', config: { openapi_url: `${api.url}/weather/x`, api_key: 'k-123' } });
    expect(notSpec.status).toBe(400);
    expect(notSpec.body.detail).toMatch(/not an OpenAPI document/);
    const badType = await as.post('/api/v1/tools/create', { name: 'X', type: 'shell', config: {} });
    expect(badType.status).toBe(400);
    expect(badType.body.detail).toMatch(/type/);
    const mcp = await as.post('/api/v1/tools/create', { name: 'X', type: 'mcp', config: {} });
    expect(mcp.status).toBe(400);
    expect(mcp.body.detail).toMatch(/tool_servers/);
    const badApi = await as.post('/api/v1/tools/create', { name: 'X', type: 'api', config: { url: 'ftp://nowhere' } });
    expect(badApi.status).toBe(400);
    expect(badApi.body.detail).toMatch(/url/);
    const malformed = await as.raw('POST', '/api/v1/tools/create', '{"name":', { 'content-type': 'application/json' });
    expect(malformed.status).toBe(400);
  });

  it('answers 404 for an unknown tool', async () => {
    const res = await server.as(alice.token).get('/api/v1/tools/no-such-tool');
    expect(res.status).toBe(404);
    expect(res.body.detail).toMatch(/not found/i);
    expect((await server.as(admin.token).post('/api/v1/tools/no-such-tool/update', { config: {} })).status).toBe(404);
    expect((await server.as(admin.token).delete('/api/v1/tools/no-such-tool')).status).toBe(404);
  });

  it('hides a private tool from users it is not shared with', async () => {
    const as = server.as(admin.token);
    const created = await as.post('/api/v1/tools/create', { name: 'Private', type: 'openapi', config: { openapi_url: api.specUrl }, access_control: {} });
    expect(created.status).toBe(200);
    expect((await server.as(alice.token).get(`/api/v1/tools/${created.body.id}`)).status).toBe(404);
    expect((await server.as(alice.token).get('/api/v1/tools')).body.map((t: { id: string }) => t.id)).not.toContain(created.body.id);
  });
});
