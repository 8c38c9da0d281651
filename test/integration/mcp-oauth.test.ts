import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { manualClock } from '../helpers/clock';
import { startTestServer, type TestServer } from '../helpers/server';
import { startMcpOAuthServer, type McpOAuthFixture } from '../fixtures/mcp-oauth-server';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { DEFAULT_TASK_CONFIG } from '../../server/contracts/tasks';

const oauthServer = (id: string, url: string) => ({
  url,
  path: null,
  spec_type: 'url',
  spec: null,
  type: 'mcp',
  auth_type: 'oauth_2.1',
  key: null,
  enable: true,
  config: { enable: true },
  info: { id, name: 'Secure tools', description: 'Needs OAuth' },
});

describe('MCP servers with OAuth 2.1', () => {
  const clock = manualClock();
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let auth: McpOAuthFixture;
  let openai: FakeOpenAI;
  let firstToken = '';

  const toolEntry = async (user: TestUser) => (await server.as(user.token).get('/api/v1/tools')).body.find((t: { id: string }) => t.id === 'server:mcp:secure');
  /** One chat turn where the model calls whoami; answers the tool result the model got back. */
  const whoamiThroughChat = async (user: TestUser): Promise<string> => {
    openai.reset();
    openai.replyOnce({ text: '', tool_calls: [{ id: 'call_w', name: 'whoami', arguments: {} }] });
    openai.replyOnce({ text: 'ok' });
    const res = await server.as(user.token).post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'who am I' }], tool_ids: ['server:mcp:secure'] });
    expect(res.status).toBe(200);
    return openai.chats()[1]!.body.messages.find((m: { role: string }) => m.role === 'tool').content as string;
  };

  beforeAll(async () => {
    server = await startTestServer({ clock });
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin, 'user', 'Alice');
    [auth, openai] = await Promise.all([startMcpOAuthServer({ accessTtlSeconds: 3600 }), startFakeOpenAI({ key: 'sk-chat', models: ['gpt-fake'] })]);
    const as = server.as(admin.token);
    expect((await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: ['sk-chat'], COMPAT_API_CONFIGS: {} })).status).toBe(200);
    const off = { ...DEFAULT_TASK_CONFIG, ENABLE_TITLE_GENERATION: false, ENABLE_TAGS_GENERATION: false, ENABLE_FOLLOW_UP_GENERATION: false };
    expect((await as.post('/api/v1/tasks/config/update', off)).status).toBe(200);
    expect((await as.post('/api/v1/configs/tool_servers', { TOOL_SERVER_CONNECTIONS: [oauthServer('secure', auth.url)] })).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
    await Promise.all([auth?.close(), openai?.close()]);
  });

  it('shows the server as not authenticated, and a chat that needs it hands the model the authorization URL', async () => {
    expect(await toolEntry(alice)).toMatchObject({ type: 'mcp', authenticated: false });
    const result = await whoamiThroughChat(alice).catch(() => '');
    // The model cannot see the server's tools yet: it gets a connect function instead.
    expect(openai.chats()[0]!.body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(['connect_secure']);
    expect(result).toMatch(/No tool named whoami/);
    openai.reset();
    openai.replyOnce({ text: '', tool_calls: [{ id: 'c', name: 'connect_secure', arguments: {} }] });
    openai.replyOnce({ text: 'Please sign in.' });
    await server.as(alice.token).post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'use it' }], tool_ids: ['server:mcp:secure'] });
    const told = openai.chats()[1]!.body.messages.find((m: { role: string }) => m.role === 'tool').content as string;
    expect(told).toContain(`${auth.issuer}authorize?`);
  });

  it('runs the whole flow headlessly: registration, authorization, code exchange, then a tool call with the token', async () => {
    const started = await server.as(alice.token).post('/api/v1/tools/oauth/secure/authorize');
    expect(started.status).toBe(200);
    expect(started.body.authenticated).toBe(false);
    const authorizationUrl = new URL(started.body.authorization_url);
    expect(authorizationUrl.href.startsWith(`${auth.issuer}authorize`)).toBe(true);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl.searchParams.get('redirect_uri')).toBe(`${server.url}/api/v1/tools/oauth/callback`);
    // Dynamic Client Registration happened once, with Parley's callback as the redirect URI.
    expect(auth.registrations).toHaveLength(1);
    expect(auth.registrations[0]!.redirect_uris).toEqual([`${server.url}/api/v1/tools/oauth/callback`]);

    // The auto-approved test user: the authorization server redirects straight back to Parley.
    const approval = await fetch(authorizationUrl, { redirect: 'manual' });
    expect(approval.status).toBe(302);
    const callback = approval.headers.get('location')!;
    expect(callback.startsWith(`${server.url}/api/v1/tools/oauth/callback?`)).toBe(true);
    const landed = await fetch(callback);
    expect(landed.status).toBe(200);
    expect(await landed.text()).toContain('Connected');
    expect(auth.codeExchanges).toBe(1);

    expect(await toolEntry(alice)).toMatchObject({ authenticated: true });
    expect(await toolEntry(admin)).toMatchObject({ authenticated: false });
    const stored = JSON.parse((await server.services.secrets.get(`tool-server:secure:oauth-tokens:${alice.id}`))!);
    firstToken = stored.access_token;
    expect(await whoamiThroughChat(alice)).toBe(`Bearer ${firstToken}`);
    expect(auth.acceptedTokens.at(-1)).toBe(firstToken);
  });

  it('refuses a callback with an unknown state', async () => {
    const res = await fetch(`${server.url}/api/v1/tools/oauth/callback?state=forged&code=abc`);
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/unknown or expired/);
  });

  it('refreshes the access token before it expires', async () => {
    clock.advance(3600 - 30);
    const refreshesBefore = auth.refreshes;
    const answer = await whoamiThroughChat(alice);
    expect(auth.refreshes).toBe(refreshesBefore + 1);
    const stored = JSON.parse((await server.services.secrets.get(`tool-server:secure:oauth-tokens:${alice.id}`))!);
    expect(stored.access_token).not.toBe(firstToken);
    expect(answer).toBe(`Bearer ${stored.access_token}`);
  });

  it('refreshes and retries when the server rejects a token Parley still thought valid', async () => {
    auth.expireAccessTokens();
    const refreshesBefore = auth.refreshes;
    const answer = await whoamiThroughChat(alice);
    expect(auth.refreshes).toBeGreaterThan(refreshesBefore);
    expect(answer).toMatch(/^Bearer at-/);
  });

  it('signs a user out of a server, and deleting a user drops their tokens', async () => {
    const bob = await buildUser(server, admin, 'user', 'Bob');
    const started = await server.as(bob.token).post('/api/v1/tools/oauth/secure/authorize');
    const approval = await fetch(started.body.authorization_url, { redirect: 'manual' });
    expect((await fetch(approval.headers.get('location')!)).status).toBe(200);
    expect(await toolEntry(bob)).toMatchObject({ authenticated: true });
    expect((await server.as(admin.token).delete(`/api/v1/users/${bob.id}`)).status).toBe(200);
    expect(await server.services.secrets.get(`tool-server:secure:oauth-tokens:${bob.id}`)).toBeNull();

    const signedOut = await server.as(alice.token).delete('/api/v1/tools/oauth/secure');
    expect(signedOut.body).toBe(true);
    expect(await toolEntry(alice)).toMatchObject({ authenticated: false });
  });

  it('drops the client registration and every token when the server is removed from the list', async () => {
    expect((await server.services.secrets.list('tool-server:secure:')).length).toBeGreaterThan(0);
    const res = await server.as(admin.token).post('/api/v1/configs/tool_servers', { TOOL_SERVER_CONNECTIONS: [] });
    expect(res.status).toBe(200);
    expect(await server.services.secrets.list('tool-server:secure:')).toEqual([]);
    expect(await toolEntry(alice)).toBeUndefined();
    // Added again, it starts from scratch: a new registration, and Alice must authorize again.
    await server.as(admin.token).post('/api/v1/configs/tool_servers', { TOOL_SERVER_CONNECTIONS: [oauthServer('secure', auth.url)] });
    expect(await toolEntry(alice)).toMatchObject({ authenticated: false });
    const again = await server.as(alice.token).post('/api/v1/tools/oauth/secure/authorize');
    expect(again.body.authorization_url).toEqual(expect.any(String));
    expect(auth.registrations).toHaveLength(2);
  });
});
