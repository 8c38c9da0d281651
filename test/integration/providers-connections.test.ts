import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { storedDatabaseText } from '../helpers/stored-text';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { startFakeOllama, type FakeOllama } from '../fixtures/fake-ollama';

/** A TCP port with nothing listening (a server that was started and closed). */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}


describe('provider connection settings', () => {
  let server: TestServer;
  let admin: TestUser;
  let user: TestUser;
  let openai: FakeOpenAI;
  let ollama: FakeOllama;
  let hanging: Server;
  let hangingUrl: string;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    user = await buildUser(server, admin, 'user');
    openai = await startFakeOpenAI({ key: 'sk-secret-compat-123', models: ['gpt-fake'] });
    ollama = await startFakeOllama({ key: 'secret-local-456', models: ['llama-fake:latest'] });
    hanging = createServer(() => undefined);
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    hangingUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await server.close();
    await openai.close();
    await ollama.close();
    hanging.closeAllConnections();
    await new Promise<void>((resolve) => hanging.close(() => resolve()));
  });

  it('starts with no providers and both connection flags off', async () => {
    const as = server.as(admin.token);
    expect((await as.get('/compat/config')).body).toEqual({ COMPAT_API_BASE_URLS: [], COMPAT_API_KEYS: [], COMPAT_API_CONFIGS: {} });
    expect((await as.get('/local/config')).body).toEqual({ LOCAL_BASE_URLS: [], LOCAL_API_CONFIGS: {} });
    expect((await as.get('/api/v1/configs/connections')).body).toEqual({ ENABLE_DIRECT_CONNECTIONS: false, ENABLE_BASE_MODELS_CACHE: false });
  });

  it('refuses every connection endpoint to anonymous callers (401) and non-admins (403)', async () => {
    const calls: Array<[string, string, unknown?]> = [
      ['GET', '/compat/config'],
      ['POST', '/compat/config/update', { COMPAT_API_BASE_URLS: [] }],
      ['POST', '/compat/verify', { url: openai.url, key: 'x' }],
      ['GET', '/local/config'],
      ['POST', '/local/config/update', { LOCAL_BASE_URLS: [] }],
      ['POST', '/local/verify', { url: ollama.url, key: '' }],
      ['GET', '/api/v1/configs/connections'],
      ['POST', '/api/v1/configs/connections', { ENABLE_BASE_MODELS_CACHE: true }],
    ];
    for (const [method, url, body] of calls) {
      const anon = method === 'GET' ? await server.anon.get(url) : await server.anon.post(url, body);
      expect(anon.status, `${method} ${url} anonymous`).toBe(401);
      const plain = method === 'GET' ? await server.as(user.token).get(url) : await server.as(user.token).post(url, body);
      expect(plain.status, `${method} ${url} as user`).toBe(403);
      expect(plain.body.detail).toBeTruthy();
    }
    // Not even a malformed body gets past the role check.
    const malformed = await server.as(user.token).post('/compat/config/update', { COMPAT_API_BASE_URLS: 'nope' });
    expect(malformed.status).toBe(403);
  });

  it('saves compatible providers, keeps keys out of the database, and reads them back for admins', async () => {
    const as = server.as(admin.token);
    const saved = await as.post('/compat/config/update', {
      COMPAT_API_BASE_URLS: [`${openai.url}/`],
      COMPAT_API_KEYS: ['sk-secret-compat-123'],
      COMPAT_API_CONFIGS: { '0': { enable: true, prefix_id: 'work', tags: ['office'], custom_flag: 42 } },
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({
      COMPAT_API_BASE_URLS: [openai.url],
      COMPAT_API_KEYS: ['sk-secret-compat-123'],
      COMPAT_API_CONFIGS: { '0': { enable: true, prefix_id: 'work', tags: ['office'], custom_flag: 42 } },
    });
    expect((await as.get('/compat/config')).body).toEqual(saved.body);
    expect(await server.services.secrets.get('provider:compat:0')).toBe('sk-secret-compat-123');
    // The URL (a plain setting) is in the database, which shows the check reads the right bytes.
    expect((await storedDatabaseText(server.services.db, server.dataDir)).includes(openai.url)).toBe(true);
    expect((await storedDatabaseText(server.services.db, server.dataDir)).includes('sk-secret-compat-123')).toBe(false);
  });

  it('moves a key written into a compat config to the secret store too', async () => {
    const as = server.as(admin.token);
    const saved = await as.post('/compat/config/update', {
      COMPAT_API_BASE_URLS: [openai.url, openai.url],
      COMPAT_API_KEYS: ['sk-secret-compat-123', ''],
      COMPAT_API_CONFIGS: { '0': { prefix_id: 'work' }, '1': { key: 'sk-in-config-789', prefix_id: 'two' } },
    });
    expect(saved.body.COMPAT_API_KEYS).toEqual(['sk-secret-compat-123', 'sk-in-config-789']);
    expect(saved.body.COMPAT_API_CONFIGS['1']).toEqual({ prefix_id: 'two' });
    expect((await storedDatabaseText(server.services.db, server.dataDir)).includes('sk-in-config-789')).toBe(false);
    await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_CONFIGS: { '0': { prefix_id: 'work', tags: ['office'], custom_flag: 42 } } });
  });

  it('saves local providers with their key taken out of the config into the secret store', async () => {
    const as = server.as(admin.token);
    const saved = await as.post('/local/config/update', {
      LOCAL_BASE_URLS: [ollama.url],
      LOCAL_API_CONFIGS: { '0': { key: 'secret-local-456', model_ids: ['llama-fake:latest'] } },
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ LOCAL_BASE_URLS: [ollama.url], LOCAL_API_CONFIGS: { '0': { key: 'secret-local-456', model_ids: ['llama-fake:latest'] } } });
    expect(await server.services.secrets.get('provider:local:0')).toBe('secret-local-456');
    expect((await storedDatabaseText(server.services.db, server.dataDir)).includes('secret-local-456')).toBe(false);
  });

  it('proves the stored keys reach the providers: both answer the model list only with the right key', async () => {
    const models = await server.as(admin.token).get('/api/models');
    expect(models.status).toBe(200);
    expect(models.body.map((m: { id: string }) => m.id).sort()).toEqual(['llama-fake:latest', 'work.gpt-fake']);
    expect(openai.requestsTo('/models').at(-1)!.headers.authorization).toBe('Bearer sk-secret-compat-123');
    expect(ollama.requestsTo('/api/tags').at(-1)!.headers.authorization).toBe('Bearer secret-local-456');
  });

  it('fits keys and configs to the URL list: extra keys are dropped, missing ones are empty', async () => {
    const as = server.as(admin.token);
    const second = await startFakeOpenAI();
    try {
      const grown = await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url, second.url] });
      expect(grown.body.COMPAT_API_KEYS).toEqual(['sk-secret-compat-123', '']);
      expect(grown.body.COMPAT_API_CONFIGS['0'].prefix_id).toBe('work');

      const shrunk = await as.post('/compat/config/update', {
        COMPAT_API_BASE_URLS: [second.url],
        COMPAT_API_KEYS: ['', 'left-over'],
        COMPAT_API_CONFIGS: { '0': {}, '3': { enable: false } },
      });
      expect(shrunk.body).toEqual({ COMPAT_API_BASE_URLS: [second.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: { '0': {} } });
      expect(await server.services.secrets.list('provider:compat:')).toEqual([]);
    } finally {
      await as.post('/compat/config/update', {
        COMPAT_API_BASE_URLS: [openai.url],
        COMPAT_API_KEYS: ['sk-secret-compat-123'],
        COMPAT_API_CONFIGS: { '0': { prefix_id: 'work' } },
      });
      await second.close();
    }
  });

  it('answers invalid settings with 400 naming the field', async () => {
    const as = server.as(admin.token);
    const badUrl = await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: ['ftp://example.com'] });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.detail).toMatch(/COMPAT_API_BASE_URLS/);
    const badConfig = await as.post('/local/config/update', { LOCAL_API_CONFIGS: { '0': { enable: 'yes' } } });
    expect(badConfig.status).toBe(400);
    expect(badConfig.body.detail).toMatch(/enable/);
    const badIndex = await as.post('/compat/config/update', { COMPAT_API_CONFIGS: { first: {} } });
    expect(badIndex.status).toBe(400);
    const badFlag = await as.post('/api/v1/configs/connections', { ENABLE_BASE_MODELS_CACHE: 'on' });
    expect(badFlag.status).toBe(400);
    expect(badFlag.body.detail).toMatch(/ENABLE_BASE_MODELS_CACHE/);
    const malformed = await as.raw('POST', '/compat/verify', '{"url":', { 'content-type': 'application/json' });
    expect(malformed.status).toBe(400);
    const missingUrl = await as.post('/compat/verify', { key: 'x' });
    expect(missingUrl.status).toBe(400);
    expect(missingUrl.body.detail).toMatch(/url/);
    // Nothing was changed by the refused updates.
    expect((await as.get('/compat/config')).body.COMPAT_API_BASE_URLS).toEqual([openai.url]);
  });

  it('updates the connection flags, any subset at a time', async () => {
    const as = server.as(admin.token);
    const on = await as.post('/api/v1/configs/connections', { ENABLE_DIRECT_CONNECTIONS: true });
    expect(on.body).toEqual({ ENABLE_DIRECT_CONNECTIONS: true, ENABLE_BASE_MODELS_CACHE: false });
    const both = await as.post('/api/v1/configs/connections', { ENABLE_DIRECT_CONNECTIONS: false, ENABLE_BASE_MODELS_CACHE: true });
    expect(both.body).toEqual({ ENABLE_DIRECT_CONNECTIONS: false, ENABLE_BASE_MODELS_CACHE: true });
    expect((await as.get('/api/v1/configs/connections')).body).toEqual(both.body);
    await as.post('/api/v1/configs/connections', { ENABLE_BASE_MODELS_CACHE: false });
  });

  describe('verify', () => {
    it('says true with how many models a reachable provider lists, and false with why when the key is wrong', async () => {
      const as = server.as(admin.token);
      expect((await as.post('/compat/verify', { url: openai.url, key: 'sk-secret-compat-123', config: {} })).body).toEqual({ status: true, model_count: 1 });
      const wrongKey = (await as.post('/compat/verify', { url: openai.url, key: 'sk-wrong', config: {} })).body;
      expect(wrongKey).toEqual({ status: false, detail: 'The provider refused the API key (HTTP 401).' });
      expect(JSON.stringify(wrongKey)).not.toContain('sk-wrong');
      expect((await as.post('/local/verify', { url: ollama.url, key: 'secret-local-456' })).body).toEqual({ status: true, model_count: 1 });
      expect((await as.post('/local/verify', { url: ollama.url, key: '' })).body).toMatchObject({ status: false, detail: expect.stringMatching(/refused the API key \(HTTP 401\)/) });
    });

    it('says false at once when nothing listens at the URL', async () => {
      const as = server.as(admin.token);
      const url = await closedPortUrl();
      const started = Date.now();
      for (const path of ['/compat/verify', '/local/verify']) {
        const body = (await as.post(path, { url, key: 'k' })).body;
        expect(body.status).toBe(false);
        expect(body.detail).toBe(`Cannot reach ${url}: nothing is listening at that address (connection refused).`);
      }
      expect(Date.now() - started).toBeLessThan(2_000);
    });

    it('says false within a few seconds when the provider never answers', async () => {
      const as = server.as(admin.token);
      const started = Date.now();
      const [compat, local] = await Promise.all([
        as.post('/compat/verify', { url: hangingUrl, key: 'k' }),
        as.post('/local/verify', { url: hangingUrl, key: '' }),
      ]);
      expect(compat.body).toEqual({ status: false, detail: expect.stringMatching(/^No answer from .* within \d+ s\.$/) });
      expect(local.body).toEqual({ status: false, detail: expect.stringMatching(/^No answer from .* within \d+ s\.$/) });
      expect(Date.now() - started).toBeLessThan(8_000);
    });
  });
});

describe('seeding a first provider from the environment', () => {
  it('configures the provider named by PARLEY_COMPAT_BASE_URL / _API_KEY and PARLEY_LOCAL_BASE_URL on a fresh install', async () => {
    const openai = await startFakeOpenAI({ key: 'sk-seeded', models: ['seeded-model'] });
    const ollama = await startFakeOllama({ models: ['seeded-local:latest'] });
    const server = await startTestServer({
      envVars: { PARLEY_COMPAT_BASE_URL: openai.url, PARLEY_COMPAT_API_KEY: 'sk-seeded', PARLEY_LOCAL_BASE_URL: ollama.url },
    });
    try {
      const admin = await signupAdmin(server);
      const compat = await server.as(admin.token).get('/compat/config');
      expect(compat.body.COMPAT_API_BASE_URLS).toEqual([openai.url]);
      expect(compat.body.COMPAT_API_KEYS).toEqual(['sk-seeded']);
      expect((await server.as(admin.token).get('/local/config')).body.LOCAL_BASE_URLS).toEqual([ollama.url]);
      const models = await server.as(admin.token).get('/api/models');
      expect(models.body.map((m: { id: string }) => m.id)).toEqual(['seeded-model', 'seeded-local:latest']);
      expect((await storedDatabaseText(server.services.db, server.dataDir)).includes('sk-seeded')).toBe(false);
    } finally {
      await server.close();
      await openai.close();
      await ollama.close();
    }
  });

  it('refuses to start with a seed URL that is not http(s)', async () => {
    await expect(startTestServer({ envVars: { PARLEY_COMPAT_BASE_URL: 'not a url' } })).rejects.toThrow(/PARLEY_COMPAT_BASE_URL/);
  });
});
