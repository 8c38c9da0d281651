import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { startFakeOllama, type FakeOllama } from '../fixtures/fake-ollama';

const q = (id: string) => `?id=${encodeURIComponent(id)}`;

describe('which models a user may chat with', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let openai: FakeOpenAI;
  let ollama: FakeOllama;

  const caller = (user: TestUser) => ({ id: user.id, role: user.role as 'user' | 'admin' });
  const availableIds = async (user: TestUser) => {
    const res = await server.as(user.token).get('/api/v1/models/available');
    expect(res.status).toBe(200);
    return (res.body as Array<{ id: string }>).map((m) => m.id).sort();
  };
  const resolveError = (user: TestUser, id: string) => server.services.models.resolveForChat(caller(user), id).then(
    () => undefined,
    (error: { status?: number; code?: string }) => error,
  );

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin, 'user', 'Alice');
    bob = await buildUser(server, admin, 'user', 'Bob');
    openai = await startFakeOpenAI({ key: 'sk-resolve', models: ['gpt-fake', 'gpt-other'] });
    ollama = await startFakeOllama({ models: ['llama-fake:latest'] });
    const as = server.as(admin.token);
    await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: ['sk-resolve'], COMPAT_API_CONFIGS: { '0': { prefix_id: 'oa' } } });
    await as.post('/local/config/update', { LOCAL_BASE_URLS: [ollama.url] });

    await as.post('/api/v1/models/create', {
      id: 'helper/v1',
      name: 'Helper',
      base_model_id: 'oa.gpt-fake',
      params: { system: 'You help.', temperature: 0.4, max_tokens: 300, top_p: null, custom_knob: 'x' },
      meta: { knowledge: [{ id: 'kb-1', name: 'Handbook', type: 'collection' }], toolIds: ['server:mcp:calc'], capabilities: { vision: true } },
      access_control: null,
    });
    await as.post('/api/v1/models/create', { id: 'sleeping', name: 'Sleeping', base_model_id: 'oa.gpt-fake', is_active: false });
    await as.post('/api/v1/models/create', { id: 'admins-only', name: 'Admins only', base_model_id: 'llama-fake:latest', access_control: {} });
    await as.post('/api/v1/models/create', { id: 'orphan', name: 'Orphan', base_model_id: 'gone-model' });
    await server.as(alice.token).post('/api/v1/models/create', { id: 'alice-private', name: 'Mine', base_model_id: 'llama-fake:latest', access_control: {} });
  });
  afterAll(async () => {
    await server.close();
    await openai.close();
    await ollama.close();
  });
  beforeEach(async () => {
    openai.reset();
    ollama.reset();
    await server.as(admin.token).post('/api/v1/models/config', { BASE_MODELS_AVAILABLE_TO_ALL: true });
  });

  describe('GET /api/v1/models/available', () => {
    it('offers readable active custom models plus every base model by default', async () => {
      expect(await availableIds(bob)).toEqual(['helper/v1', 'llama-fake:latest', 'oa.gpt-fake', 'oa.gpt-other', 'orphan']);
      expect(await availableIds(alice)).toEqual(['alice-private', 'helper/v1', 'llama-fake:latest', 'oa.gpt-fake', 'oa.gpt-other', 'orphan']);
      expect(await availableIds(admin)).toEqual(['admins-only', 'alice-private', 'helper/v1', 'llama-fake:latest', 'oa.gpt-fake', 'oa.gpt-other', 'orphan']);
    });

    it('describes each entry with its kind, base model, meta and provider', async () => {
      const res = await server.as(bob.token).get('/api/v1/models/available');
      const helper = res.body.find((m: { id: string }) => m.id === 'helper/v1');
      expect(helper).toEqual({
        id: 'helper/v1',
        name: 'Helper',
        kind: 'custom',
        base_model_id: 'oa.gpt-fake',
        meta: { knowledge: [{ id: 'kb-1', name: 'Handbook', type: 'collection' }], toolIds: ['server:mcp:calc'], capabilities: { vision: true } },
        provider: 'compat',
        provider_index: 0,
        provider_name: null,
      });
      expect(res.body.find((m: { id: string }) => m.id === 'llama-fake:latest')).toEqual({
        id: 'llama-fake:latest',
        name: 'llama-fake:latest',
        kind: 'base',
        base_model_id: null,
        meta: {},
        provider: 'local',
        provider_index: 0,
        provider_name: null,
      });
    });

    it('offers only custom models to users once base models are no longer for everyone', async () => {
      const as = server.as(admin.token);
      const config = await as.post('/api/v1/models/config', { BASE_MODELS_AVAILABLE_TO_ALL: false });
      expect(config.body).toEqual({ BASE_MODELS_AVAILABLE_TO_ALL: false });
      expect((await as.get('/api/v1/models/config')).body).toEqual({ BASE_MODELS_AVAILABLE_TO_ALL: false });
      expect(await availableIds(bob)).toEqual(['helper/v1', 'orphan']);
      expect(await availableIds(admin)).toContain('oa.gpt-fake');
    });

    it('lets a registry entry with base_model_id null grant or hide one base model', async () => {
      const as = server.as(admin.token);
      await as.post('/api/v1/models/config', { BASE_MODELS_AVAILABLE_TO_ALL: false });
      await as.post('/api/v1/models/create', { id: 'oa.gpt-other', name: 'Other GPT (for everyone)', base_model_id: null, access_control: null });
      await as.post('/api/v1/models/create', { id: 'llama-fake:latest', name: 'Llama (only Alice)', base_model_id: null, access_control: { read: { user_ids: [alice.id], group_ids: [] } } });
      try {
        expect(await availableIds(bob)).toEqual(['helper/v1', 'oa.gpt-other', 'orphan']);
        expect(await availableIds(alice)).toEqual(['alice-private', 'helper/v1', 'llama-fake:latest', 'oa.gpt-other', 'orphan']);
        const other = (await server.as(bob.token).get('/api/v1/models/available')).body.find((m: { id: string }) => m.id === 'oa.gpt-other');
        expect(other).toMatchObject({ kind: 'base', name: 'Other GPT (for everyone)', provider: 'compat' });

        // Even with base models for all, a private description hides that base model from others.
        await as.post('/api/v1/models/config', { BASE_MODELS_AVAILABLE_TO_ALL: true });
        expect(await availableIds(bob)).not.toContain('llama-fake:latest');
        expect((await resolveError(bob, 'llama-fake:latest'))?.code).toBe('MODEL_NOT_FOUND');
        expect((await server.services.models.resolveForChat(caller(alice), 'llama-fake:latest')).providerModelId).toBe('llama-fake:latest');
      } finally {
        await as.delete(`/api/v1/models/model/delete${q('oa.gpt-other')}`);
        await as.delete(`/api/v1/models/model/delete${q('llama-fake:latest')}`);
      }
    });

    it('refuses anonymous callers and pending accounts; the setting is for admins only', async () => {
      const pending = await buildUser(server, admin, 'pending');
      expect((await server.anon.get('/api/v1/models/available')).status).toBe(401);
      expect((await server.as(pending.token).get('/api/v1/models/available')).status).toBe(403);
      expect((await server.as(bob.token).get('/api/v1/models/config')).status).toBe(403);
      expect((await server.as(bob.token).post('/api/v1/models/config', { BASE_MODELS_AVAILABLE_TO_ALL: false })).status).toBe(403);
      const bad = await server.as(admin.token).post('/api/v1/models/config', { BASE_MODELS_AVAILABLE_TO_ALL: 'no' });
      expect(bad.status).toBe(400);
      expect(bad.body.detail).toMatch(/BASE_MODELS_AVAILABLE_TO_ALL/);
    });
  });

  describe('resolveForChat', () => {
    it('resolves a custom model to its provider, the provider model id without prefix, params and meta', async () => {
      const resolved = await server.services.models.resolveForChat(caller(bob), 'helper/v1');
      expect(resolved.providerRef).toEqual({ kind: 'compat', index: 0 });
      expect(resolved.providerModelId).toBe('gpt-fake');
      expect(resolved.params).toEqual({ system: 'You help.', temperature: 0.4, max_tokens: 300, extra: { custom_knob: 'x' } });
      expect(resolved.meta.knowledge).toEqual([{ id: 'kb-1', name: 'Handbook', type: 'collection' }]);
      expect(resolved.meta.toolIds).toEqual(['server:mcp:calc']);
      expect(resolved.meta.capabilities).toEqual({ vision: true });
      expect(resolved.model).toMatchObject({ id: 'helper/v1', base_model_id: 'oa.gpt-fake' });
      expect(resolved.baseModel).toMatchObject({ id: 'oa.gpt-fake', provider_model_id: 'gpt-fake' });

      // The resolved provider really works, with the key from the secret store.
      openai.reply({ text: 'Resolved and answered' });
      const answer = await resolved.provider.chat({ model: resolved.providerModelId, messages: [{ role: 'user', content: 'hi' }] });
      expect(answer.content).toBe('Resolved and answered');
      expect(openai.lastChat()!.headers.authorization).toBe('Bearer sk-resolve');
      expect(openai.lastChat()!.body.model).toBe('gpt-fake');
    });

    it('resolves a base model with empty params and meta', async () => {
      const resolved = await server.services.models.resolveForChat(caller(bob), 'llama-fake:latest');
      expect(resolved.providerRef).toEqual({ kind: 'local', index: 0 });
      expect(resolved.params).toEqual({ extra: {} });
      expect(resolved.meta).toEqual({ knowledge: [], toolIds: [], capabilities: null, all: {} });
      expect(resolved.model).toMatchObject({ id: 'llama-fake:latest', provider: 'local' });
    });

    it('refuses missing, inactive, private and orphaned models alike, and sends nothing to any provider', async () => {
      for (const id of ['no-such-model', 'sleeping', 'admins-only', 'alice-private', 'orphan', 'gpt-fake']) {
        const error = await resolveError(bob, id);
        expect(error, id).toMatchObject({ status: 404, code: 'MODEL_NOT_FOUND' });
      }
      expect(openai.chats()).toHaveLength(0);
      expect(ollama.chats()).toHaveLength(0);
      // Admins may use private models, but not inactive ones.
      expect((await server.services.models.resolveForChat(caller(admin), 'admins-only')).providerModelId).toBe('llama-fake:latest');
      expect((await resolveError(admin, 'sleeping'))?.code).toBe('MODEL_NOT_FOUND');
    });

    it('refuses base models to users when base models are not for everyone, but not custom models built on them', async () => {
      await server.as(admin.token).post('/api/v1/models/config', { BASE_MODELS_AVAILABLE_TO_ALL: false });
      expect((await resolveError(bob, 'oa.gpt-fake'))?.code).toBe('MODEL_NOT_FOUND');
      expect((await server.services.models.resolveForChat(caller(bob), 'helper/v1')).providerModelId).toBe('gpt-fake');
      expect((await server.services.models.resolveForChat(caller(admin), 'oa.gpt-fake')).providerModelId).toBe('gpt-fake');
    });

    it('stops resolving models of a provider that an admin disabled', async () => {
      const as = server.as(admin.token);
      await as.post('/compat/config/update', { COMPAT_API_CONFIGS: { '0': { prefix_id: 'oa', enable: false } } });
      try {
        expect((await resolveError(bob, 'helper/v1'))?.code).toBe('MODEL_NOT_FOUND');
        expect(await availableIds(bob)).not.toContain('oa.gpt-fake');
      } finally {
        await as.post('/compat/config/update', { COMPAT_API_CONFIGS: { '0': { prefix_id: 'oa' } } });
      }
      expect((await server.services.models.resolveForChat(caller(bob), 'helper/v1')).providerModelId).toBe('gpt-fake');
    });

    it('finds a model a provider added after the last listing', async () => {
      await server.services.models.resolveForChat(caller(bob), 'oa.gpt-fake');
      openai.models = [...openai.models, 'gpt-late'];
      try {
        expect((await server.services.models.resolveForChat(caller(bob), 'oa.gpt-late')).providerModelId).toBe('gpt-late');
      } finally {
        openai.models = ['gpt-fake', 'gpt-other'];
      }
    });
  });
});
