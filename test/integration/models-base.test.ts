import { readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { manualClock, type ManualClock } from '../helpers/clock';
import { startTestServer, tempDataDir, type TestServer } from '../helpers/server';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { startFakeOllama, type FakeOllama } from '../fixtures/fake-ollama';

async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

const ids = (body: Array<{ id: string }>) => body.map((m) => m.id);

describe('base models (GET /api/models)', () => {
  let server: TestServer;
  let clock: ManualClock;
  let admin: TestUser;
  let openai: FakeOpenAI;
  let openai2: FakeOpenAI;
  let ollama: FakeOllama;
  let hanging: Server;
  let hangingUrl: string;

  const configure = async (compat: unknown, local: unknown) => {
    const as = server.as(admin.token);
    expect((await as.post('/compat/config/update', compat)).status).toBe(200);
    expect((await as.post('/local/config/update', local)).status).toBe(200);
  };

  beforeAll(async () => {
    clock = manualClock();
    server = await startTestServer({ clock });
    admin = await signupAdmin(server);
    openai = await startFakeOpenAI({ key: 'sk-one', models: ['gpt-a', 'gpt-b', 'shared'] });
    openai2 = await startFakeOpenAI({ key: 'sk-two', models: ['other-x', 'shared'] });
    ollama = await startFakeOllama({ models: ['llama-fake:latest', 'shared'] });
    hanging = createServer(() => undefined);
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    hangingUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await server.close();
    await Promise.all([openai.close(), openai2.close(), ollama.close()]);
    hanging.closeAllConnections();
    await new Promise<void>((resolve) => hanging.close(() => resolve()));
  });
  beforeEach(async () => {
    openai.models = ['gpt-a', 'gpt-b', 'shared'];
    await server.as(admin.token).post('/api/v1/configs/connections', { ENABLE_BASE_MODELS_CACHE: false });
    await configure(
      { COMPAT_API_BASE_URLS: [openai.url, openai2.url], COMPAT_API_KEYS: ['sk-one', 'sk-two'], COMPAT_API_CONFIGS: {} },
      { LOCAL_BASE_URLS: [ollama.url], LOCAL_API_CONFIGS: {} },
    );
  });

  it('is for admins only', async () => {
    const user = await buildUser(server, admin, 'user');
    expect((await server.anon.get('/api/models')).status).toBe(401);
    expect((await server.as(user.token).get('/api/models')).status).toBe(403);
  });

  it('is an empty list when no provider is configured', async () => {
    await configure({ COMPAT_API_BASE_URLS: [] }, { LOCAL_BASE_URLS: [] });
    const res = await server.as(admin.token).get('/api/models');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('merges every provider in order, each model naming its provider kind and index; the first provider wins a shared id', async () => {
    const res = await server.as(admin.token).get('/api/models');
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(['gpt-a', 'gpt-b', 'shared', 'other-x', 'llama-fake:latest']);
    const byId = Object.fromEntries(res.body.map((m: { id: string }) => [m.id, m]));
    expect(byId['other-x']).toMatchObject({ provider: 'compat', provider_index: 1, provider_model_id: 'other-x', base_model_id: null, owned_by: 'compat', object: 'model', is_active: true });
    expect(byId['shared']).toMatchObject({ provider: 'compat', provider_index: 0 });
    expect(byId['llama-fake:latest']).toMatchObject({ provider: 'local', provider_index: 0, name: 'llama-fake:latest' });
    expect(typeof byId['gpt-a'].created).toBe('number');
  });

  it('applies prefix_id, the model_ids allow-list, tags, and leaves out disabled providers', async () => {
    await configure(
      {
        COMPAT_API_CONFIGS: {
          '0': { prefix_id: 'team', model_ids: ['gpt-b', 'shared'], tags: [{ name: 'team' }] },
          '1': { enable: false },
        },
      },
      { LOCAL_API_CONFIGS: { '0': { prefix_id: 'home' } } },
    );
    openai2.reset();
    const res = await server.as(admin.token).get('/api/models');
    expect(ids(res.body)).toEqual(['team.gpt-b', 'team.shared', 'home.llama-fake:latest', 'home.shared']);
    const teamB = res.body.find((m: { id: string }) => m.id === 'team.gpt-b');
    expect(teamB).toMatchObject({ provider_model_id: 'gpt-b', tags: [{ name: 'team' }] });
    expect(openai2.requestsTo('/models').length).toBe(0);
  });

  it('skips a provider that refuses connections and still lists the others', async () => {
    const down = await closedPortUrl();
    await configure({ COMPAT_API_BASE_URLS: [down, openai.url], COMPAT_API_KEYS: ['k', 'sk-one'] }, { LOCAL_BASE_URLS: [`${down}/`, ollama.url] });
    const res = await server.as(admin.token).get('/api/models');
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(['gpt-a', 'gpt-b', 'shared', 'llama-fake:latest']);
    expect(res.body.find((m: { id: string }) => m.id === 'gpt-a').provider_index).toBe(1);
  });

  it('skips a provider that refuses the key or fails, and still lists the others', async () => {
    await configure({ COMPAT_API_KEYS: ['sk-wrong', 'sk-two'] }, {});
    expect(ids((await server.as(admin.token).get('/api/models')).body)).toEqual(['other-x', 'shared', 'llama-fake:latest']);
    openai2.modelsStatus = 500;
    try {
      expect(ids((await server.as(admin.token).get('/api/models')).body)).toEqual(['llama-fake:latest', 'shared']);
    } finally {
      openai2.modelsStatus = null;
    }
  });

  it('skips providers that never answer after a few seconds, asking them in parallel', async () => {
    await configure(
      { COMPAT_API_BASE_URLS: [hangingUrl, openai.url, hangingUrl], COMPAT_API_KEYS: ['', 'sk-one', ''] },
      { LOCAL_BASE_URLS: [hangingUrl, ollama.url] },
    );
    const started = Date.now();
    const res = await server.as(admin.token).get('/api/models');
    const elapsed = Date.now() - started;
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(['gpt-a', 'gpt-b', 'shared', 'llama-fake:latest']);
    // Three hanging providers cost one deadline, not three.
    expect(elapsed).toBeGreaterThanOrEqual(2_500);
    expect(elapsed).toBeLessThan(6_000);
  });

  it('asks the providers on every call when the cache is off', async () => {
    const before = openai.requestsTo('/models').length;
    expect(ids((await server.as(admin.token).get('/api/models')).body)).toContain('gpt-a');
    openai.models = ['gpt-new'];
    expect(ids((await server.as(admin.token).get('/api/models')).body)).toEqual(['gpt-new', 'other-x', 'shared', 'llama-fake:latest']);
    expect(openai.requestsTo('/models').length).toBe(before + 2);
  });

  it('answers from the cache when it is on, refreshes it in the background once it is old, and drops it when settings change', async () => {
    const as = server.as(admin.token);
    await as.post('/api/v1/configs/connections', { ENABLE_BASE_MODELS_CACHE: true });
    expect(ids((await as.get('/api/models')).body)).toContain('gpt-a');
    const asked = openai.requestsTo('/models').length;

    openai.models = ['gpt-new'];
    expect(ids((await as.get('/api/models')).body)).toContain('gpt-a');
    expect(openai.requestsTo('/models').length).toBe(asked);

    // Old enough: the stale list is answered at once and a refresh starts behind it.
    clock.advance(120);
    expect(ids((await as.get('/api/models')).body)).toContain('gpt-a');
    await expect.poll(async () => ids((await as.get('/api/models')).body), { timeout: 3_000 }).toContain('gpt-new');
    expect(openai.requestsTo('/models').length).toBe(asked + 1);

    // A settings change is seen at once.
    await configure({ COMPAT_API_CONFIGS: { '0': { prefix_id: 'p' } } }, {});
    expect(ids((await as.get('/api/models')).body)).toContain('p.gpt-new');
  });

  it('does not wait for a hanging provider when answering from the cache', async () => {
    const as = server.as(admin.token);
    await configure({ COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: ['sk-one'] }, { LOCAL_BASE_URLS: [] });
    await as.post('/api/v1/configs/connections', { ENABLE_BASE_MODELS_CACHE: true });
    expect(ids((await as.get('/api/models')).body)).toEqual(['gpt-a', 'gpt-b', 'shared']);
    openai.modelsDelay = 'hang';
    try {
      clock.advance(120);
      const started = Date.now();
      expect(ids((await as.get('/api/models')).body)).toEqual(['gpt-a', 'gpt-b', 'shared']);
      expect(Date.now() - started).toBeLessThan(1_000);
    } finally {
      openai.modelsDelay = 0;
    }
  });
});

describe('a skipped provider is logged', () => {
  it('writes a warning naming the provider that failed', async () => {
    const dataDir = tempDataDir();
    const server = await startTestServer({ dataDir });
    try {
      const admin = await signupAdmin(server);
      const down = await closedPortUrl();
      await server.as(admin.token).post('/compat/config/update', { COMPAT_API_BASE_URLS: [down] });
      expect((await server.as(admin.token).get('/api/models')).body).toEqual([]);
    } finally {
      await server.close();
    }
    try {
      const lines = readFileSync(path.join(dataDir, 'logs', 'parley.log'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
      const warning = lines.find((l) => l.msg === 'provider skipped: its model list failed');
      expect(warning).toMatchObject({ level: 40, provider: 'compat', index: 0 });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
