import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { startFakeOllama, type FakeOllama } from '../fixtures/fake-ollama';

describe('the chat and task model pickers offer chat models only', () => {
  let server: TestServer;
  let admin: TestUser;
  let user: TestUser;
  let openai: FakeOpenAI;
  let ollama: FakeOllama;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    user = await buildUser(server, admin, 'user');
    openai = await startFakeOpenAI({ models: ['gpt-fake', 'text-embedding-3-small', 'bge-reranker-v2-m3'] });
    ollama = await startFakeOllama({ models: ['llama-fake:latest', 'nomic-embed-text:latest', 'bge-m3:latest', 'all-minilm:l6-v2'] });
    const as = server.as(admin.token);
    await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
    await as.post('/local/config/update', { LOCAL_BASE_URLS: [ollama.url] });
  });
  afterAll(async () => {
    await server?.close();
    await openai?.close();
    await ollama?.close();
  });

  it('leaves embedding and reranking models out of the models a person may chat with', async () => {
    for (const who of [admin, user]) {
      const res = await server.as(who.token).get('/api/v1/models/available');
      expect(res.status).toBe(200);
      expect((res.body as Array<{ id: string }>).map((m) => m.id).sort()).toEqual(['gpt-fake', 'llama-fake:latest']);
    }
  });

  it('still lists them to API clients (/v1/models) and where embedding models are chosen (the raw model list)', async () => {
    const key = (await server.as(admin.token).post('/api/v1/auths/api_key', {})).body.api_key as string;
    const v1 = await server.as(key).get('/v1/models');
    expect(v1.status).toBe(200);
    expect((v1.body.data as Array<{ id: string }>).map((m) => m.id)).toEqual(expect.arrayContaining(['text-embedding-3-small', 'nomic-embed-text:latest']));

    const res = await server.as(admin.token).get('/api/models');
    expect(res.status).toBe(200);
    const ids = (res.body as Array<{ id: string }>).map((m) => m.id);
    expect(ids).toEqual(expect.arrayContaining(['text-embedding-3-small', 'nomic-embed-text:latest', 'bge-m3:latest']));
  });

  it('names each model’s connection as the admin named it, and refuses a name too long', async () => {
    const as = server.as(admin.token);
    const saved = await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: { '0': { name: '  Office GPU ' } } });
    expect(saved.status).toBe(200);
    expect((await as.get('/compat/config')).body.COMPAT_API_CONFIGS['0'].name).toBe('Office GPU');
    const models = (await server.as(user.token).get('/api/v1/models/available')).body as Array<{ id: string; provider_name?: string | null }>;
    expect(models.find((m) => m.id === 'gpt-fake')?.provider_name).toBe('Office GPU');
    expect(models.find((m) => m.id === 'llama-fake:latest')?.provider_name).toBeNull();

    const tooLong = await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: { '0': { name: 'x'.repeat(101) } } });
    expect([400, 422]).toContain(tooLong.status);
    expect(tooLong.body.detail).toMatch(/name/);
  });
});
