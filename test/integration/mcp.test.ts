import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { startMcpServer, type McpServerFixture } from '../fixtures/mcp-server';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { DEFAULT_TASK_CONFIG } from '../../server/contracts/tasks';

const server_ = (id: string, url: string, extra: Record<string, unknown> = {}) => ({
  url,
  path: null,
  spec_type: 'url',
  spec: null,
  type: 'mcp',
  auth_type: 'none',
  key: null,
  enable: true,
  config: { enable: true },
  info: { id, name: `Server ${id}`, description: `The ${id} server` },
  ...extra,
});

/** The `data:` payloads of an SSE body, without [DONE]. */
function chunks(text: string): any[] {
  return text
    .split('\n\n')
    .filter((b) => b.startsWith('data: ') && b !== 'data: [DONE]')
    .map((b) => JSON.parse(b.slice(6)));
}

describe('MCP tool servers', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let open: McpServerFixture;
  let guarded: McpServerFixture;
  let legacy: McpServerFixture;
  let openai: FakeOpenAI;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin, 'user', 'Alice');
    [open, guarded, legacy, openai] = await Promise.all([
      startMcpServer(),
      startMcpServer({ bearer: 'mcp-key' }),
      startMcpServer({ legacySse: true }),
      startFakeOpenAI({ key: 'sk-chat', models: ['gpt-fake'] }),
    ]);
    const as = server.as(admin.token);
    expect((await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: ['sk-chat'], COMPAT_API_CONFIGS: {} })).status).toBe(200);
    const off = { ...DEFAULT_TASK_CONFIG, ENABLE_TITLE_GENERATION: false, ENABLE_TAGS_GENERATION: false, ENABLE_FOLLOW_UP_GENERATION: false };
    expect((await as.post('/api/v1/tasks/config/update', off)).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
    await Promise.all([open?.close(), guarded?.close(), legacy?.close(), openai?.close()]);
  });
  beforeEach(() => openai.reset());

  it('verifies a reachable MCP server and returns its tools with input schemas', async () => {
    const res = await server.as(admin.token).post('/api/v1/configs/tool_servers/verify', { url: open.url, type: 'mcp', auth_type: 'none', key: '' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(true);
    expect(res.body.specs.map((s: { name: string }) => s.name).sort()).toEqual(['add', 'echo', 'fail', 'whoami']);
    const add = res.body.specs.find((s: { name: string }) => s.name === 'add');
    expect(add).toMatchObject({ description: 'Adds two numbers', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } });
  });

  it('falls back to the older SSE transport for servers without Streamable HTTP', async () => {
    const res = await server.as(admin.token).post('/api/v1/configs/tool_servers/verify', { url: legacy.url, type: 'mcp', auth_type: 'none' });
    expect(res.status).toBe(200);
    expect(res.body.specs.map((s: { name: string }) => s.name)).toContain('echo');
  });

  it('answers 400 for an unreachable server and 403 when the server refuses the credentials', async () => {
    const as = server.as(admin.token);
    const down = await as.post('/api/v1/configs/tool_servers/verify', { url: 'http://127.0.0.1:9/mcp', type: 'mcp', auth_type: 'none' });
    expect(down.status).toBe(400);
    expect(down.body.detail).toMatch(/Could not connect/);
    const wrong = await as.post('/api/v1/configs/tool_servers/verify', { url: guarded.url, type: 'mcp', auth_type: 'bearer', key: 'wrong' });
    expect(wrong.status).toBe(403);
    expect(wrong.body.detail).toMatch(/Authentication failed/);
    const right = await as.post('/api/v1/configs/tool_servers/verify', { url: guarded.url, type: 'mcp', auth_type: 'bearer', key: 'mcp-key' });
    expect(right.status).toBe(200);
  });

  it('keeps the tool-server list admin-only and refuses invalid lists with 400', async () => {
    const as = server.as(alice.token);
    expect((await as.get('/api/v1/configs/tool_servers')).status).toBe(403);
    expect((await as.post('/api/v1/configs/tool_servers', { TOOL_SERVER_CONNECTIONS: [] })).status).toBe(403);
    expect((await as.post('/api/v1/configs/tool_servers/verify', { url: open.url })).status).toBe(403);
    const noId = await server.as(admin.token).post('/api/v1/configs/tool_servers', { TOOL_SERVER_CONNECTIONS: [{ ...server_('x', open.url), info: { name: 'x' } }] });
    expect(noId.status).toBe(400);
    expect(noId.body.detail).toMatch(/info\.id/);
    const badAuth = await server.as(admin.token).post('/api/v1/configs/tool_servers', { TOOL_SERVER_CONNECTIONS: [server_('x', open.url, { auth_type: 'magic' })] });
    expect(badAuth.status).toBe(400);
    expect(badAuth.body.detail).toMatch(/auth_type/);
  });

  it('stores the posted list whole, keeps bearer keys out of the database, and lists enabled servers as tools', async () => {
    const as = server.as(admin.token);
    const list = [server_('calc', open.url), server_('guarded', guarded.url, { auth_type: 'bearer', key: 'mcp-key' }), server_('off', open.url, { enable: false }), server_('me', open.url, { auth_type: 'session' })];
    const saved = await as.post('/api/v1/configs/tool_servers', { TOOL_SERVER_CONNECTIONS: list });
    expect(saved.status).toBe(200);
    expect(saved.body.TOOL_SERVER_CONNECTIONS).toHaveLength(4);
    expect(saved.body.TOOL_SERVER_CONNECTIONS[1]).toMatchObject({ url: guarded.url, auth_type: 'bearer', key: 'mcp-key', info: { id: 'guarded' } });
    expect((await as.get('/api/v1/configs/tool_servers')).body).toEqual(saved.body);
    const row = await server.services.db('config').where({ key: 'tool_servers' }).first();
    expect(row.value).not.toContain('mcp-key');
    expect(await server.services.secrets.get('tool-server:guarded:key')).toBe('mcp-key');

    const tools = await server.as(alice.token).get('/api/v1/tools');
    const mcp = tools.body.filter((t: { id: string }) => t.id.startsWith('server:mcp:'));
    expect(mcp.map((t: { id: string }) => t.id)).toEqual(['server:mcp:calc', 'server:mcp:guarded', 'server:mcp:me']);
    expect(mcp[0]).toMatchObject({ name: 'Server calc', type: 'mcp', meta: { description: 'The calc server' }, authenticated: true, created_at: expect.any(Number) });

    // The posted array replaces the list: 'guarded' is gone, and so is its key.
    const replaced = await as.post('/api/v1/configs/tool_servers', { TOOL_SERVER_CONNECTIONS: [list[0], list[3]] });
    expect(replaced.body.TOOL_SERVER_CONNECTIONS.map((s: { info: { id: string } }) => s.info.id)).toEqual(['calc', 'me']);
    expect(await server.services.secrets.get('tool-server:guarded:key')).toBeNull();
  });

  it('runs an MCP tool the model asks for and feeds the result back (non-stream)', async () => {
    openai.replyOnce({ text: '', tool_calls: [{ id: 'call_1', name: 'add', arguments: { a: 2, b: 3 } }] });
    openai.replyOnce({ text: 'The sum is 5.' });
    const res = await server.as(alice.token).post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'What is 2+3?' }], tool_ids: ['server:mcp:calc'] });
    expect(res.status).toBe(200);
    expect(res.body.choices[0].message.content).toBe('The sum is 5.');
    const [first, second] = openai.chats();
    expect(first!.body.tools.map((t: { function: { name: string } }) => t.function.name).sort()).toEqual(['add', 'echo', 'fail', 'whoami']);
    const toolMessage = second!.body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(toolMessage).toMatchObject({ tool_call_id: 'call_1', content: '5' });
    expect(open.calls.at(-1)).toMatchObject({ name: 'add', args: { a: 2, b: 3 } });
  });

  it('streams a tool round: status events, then the answer; a failing tool gives the model an error result', async () => {
    openai.replyOnce({ text: '', tool_calls: [{ id: 'call_f', name: 'fail', arguments: {} }] });
    openai.replyOnce({ pieces: ['It ', 'failed.'] });
    const res = await server.as(alice.token).post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'Try it' }], tool_ids: ['server:mcp:calc'], stream: true });
    expect(res.status).toBe(200);
    const events = chunks(res.text);
    const text = events.map((c) => c.choices?.[0]?.delta?.content ?? '').join('');
    expect(text).toBe('It failed.');
    expect(JSON.stringify(events)).toContain('tool_calls');
    const toolMessage = openai.chats()[1]!.body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(toolMessage.content).toMatch(/the tool broke/);
  });

  it("sends the caller's own token to servers with auth_type session", async () => {
    openai.replyOnce({ text: '', tool_calls: [{ id: 'call_w', name: 'whoami', arguments: {} }] });
    openai.replyOnce({ text: 'ok' });
    const res = await server.as(alice.token).post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'who am I' }], tool_ids: ['server:mcp:me'] });
    expect(res.status).toBe(200);
    const toolMessage = openai.chats()[1]!.body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(toolMessage.content).toBe(`Bearer ${alice.token}`);
  });

  it("uses a custom model's meta.toolIds and leaves out an unreachable server without breaking the chat", async () => {
    const as = server.as(admin.token);
    await as.post('/api/v1/configs/tool_servers', { TOOL_SERVER_CONNECTIONS: [server_('calc', open.url), server_('down', 'http://127.0.0.1:9/mcp')] });
    const created = await as.post('/api/v1/models/create', { id: 'calculator', name: 'Calculator', base_model_id: 'gpt-fake', params: {}, meta: { toolIds: ['server:mcp:calc', 'server:mcp:down'] } });
    expect(created.status).toBe(200);
    openai.replyOnce({ text: '', tool_calls: [{ id: 'c1', name: 'echo', arguments: { text: 'hello' } }] });
    openai.replyOnce({ text: 'done' });
    const res = await server.as(alice.token).post('/api/chat/completions', { model: 'calculator', messages: [{ role: 'user', content: 'echo hello' }] });
    expect(res.status).toBe(200);
    expect(res.body.choices[0].message.content).toBe('done');
    expect(openai.chats()[0]!.body.tools).toHaveLength(4);
    expect(openai.chats()[1]!.body.messages.find((m: { role: string }) => m.role === 'tool').content).toBe('hello');
  });
});
