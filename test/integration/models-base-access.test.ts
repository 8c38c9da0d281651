import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';

const q = (id: string) => `?id=${encodeURIComponent(id)}`;
const messages = [{ role: 'user', content: 'Hello there' }];

/*
 * A restricted base model stays restricted when someone wraps it in a custom model: creating,
 * updating and chatting with a custom model need its owner to be allowed the base model, and a
 * reader of someone else's shared model needs it too (an admin's model lends its base model to
 * its readers: admins could grant the base model itself).
 */
describe('custom models cannot unlock a restricted base model', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let mallory: TestUser;
  let openai: FakeOpenAI;

  const keyOf = async (user: TestUser) => (await server.as(user.token).post('/api/v1/auths/api_key')).body.api_key as string;
  const availableIds = async (user: TestUser) => ((await server.as(user.token).get('/api/v1/models/available')).body as Array<{ id: string }>).map((m) => m.id);
  /**
   * Every way a person can run a model: the UI's completions, /v1 with a key, a task (which
   * answers a fallback title when its model cannot run). Whether each reached the provider.
   */
  const useEverywhere = async (user: TestUser, model: string) => {
    const key = await keyOf(user);
    const reached = async (send: () => Promise<unknown>) => {
      const before = openai.chats().length;
      await send();
      await server.services.completions.idle();
      return openai.chats().length > before;
    };
    return {
      ui: await reached(() => server.as(user.token).post('/api/chat/completions', { model, messages, stream: false })),
      v1: await reached(() => server.as(key).post('/v1/chat/completions', { model, messages })),
      task: await reached(() => server.as(user.token).post('/api/v1/tasks/title', { model, messages })),
    };
  };
  const refusedEverywhere = { ui: false, v1: false, task: false };
  const answeredEverywhere = { ui: true, v1: true, task: true };
  /** A row written straight to the database, as an entry made before the rule would be. */
  const plant = async (owner: TestUser, id: string, base: string, access: unknown = null) => {
    const now = Math.floor(Date.now() / 1000);
    await server.services.db('models').insert({ id, user_id: owner.id, base_model_id: base, name: id, params: '{}', meta: '{}', access_control: access === null ? null : JSON.stringify(access), is_active: true, created_at: now, updated_at: now });
  };

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin, 'user', 'Alice');
    mallory = await buildUser(server, admin, 'user', 'Mallory');
    openai = await startFakeOpenAI({ key: 'sk-base', models: ['gpt-open', 'gpt-secret'] });
    const as = server.as(admin.token);
    await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: ['sk-base'], COMPAT_API_CONFIGS: {} });
    // The secret base model is Alice's only: an admin's private entry describes it.
    const described = await as.post('/api/v1/models/create', { id: 'gpt-secret', name: 'Secret', base_model_id: null, access_control: { read: { user_ids: [alice.id], group_ids: [] } } });
    expect(described.status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
    await openai?.close();
  });
  beforeEach(async () => {
    openai.reset();
    openai.reply({ text: '{"title": "Hi"}' });
    await server.as(admin.token).post('/api/v1/models/config', { BASE_MODELS_AVAILABLE_TO_ALL: true });
  });

  it('refuses creating a custom model on a base model the creator may not use (403), and lets allowed people do it', async () => {
    const wrap = { id: 'mallory-wrap', name: 'Wrapper', base_model_id: 'gpt-secret', access_control: {} };
    const refused = await server.as(mallory.token).post('/api/v1/models/create', wrap);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/base model 'gpt-secret'/);
    expect((await server.as(mallory.token).get(`/api/v1/models/model${q('mallory-wrap')}`)).status).toBe(401);

    // With base models not for everyone, no base model is open to a user without an entry.
    await server.as(admin.token).post('/api/v1/models/config', { BASE_MODELS_AVAILABLE_TO_ALL: false });
    expect((await server.as(mallory.token).post('/api/v1/models/create', { ...wrap, base_model_id: 'gpt-open' })).status).toBe(403);
    await server.as(admin.token).post('/api/v1/models/config', { BASE_MODELS_AVAILABLE_TO_ALL: true });

    expect((await server.as(mallory.token).post('/api/v1/models/create', { ...wrap, base_model_id: 'gpt-open' })).status).toBe(200);
    expect((await server.as(alice.token).post('/api/v1/models/create', { ...wrap, id: 'alice-wrap-private' })).status).toBe(200);
  });

  it('refuses moving a custom model onto a base model its editor or its owner may not use (400)', async () => {
    const own = await server.as(mallory.token).post('/api/v1/models/create', { id: 'mallory-open', name: 'Open', base_model_id: 'gpt-open', access_control: {} });
    expect(own.status).toBe(200);
    const moved = await server.as(mallory.token).post(`/api/v1/models/model/update${q('mallory-open')}`, { ...own.body, base_model_id: 'gpt-secret' });
    expect(moved.status).toBe(400);
    expect(moved.body.detail).toMatch(/base model 'gpt-secret'/);
    expect((await server.as(mallory.token).get(`/api/v1/models/model${q('mallory-open')}`)).body.base_model_id).toBe('gpt-open');

    // Mallory may write Alice's model, but cannot point it at a base model Mallory may not use…
    const write = { read: { user_ids: [mallory.id], group_ids: [] }, write: { user_ids: [mallory.id], group_ids: [] } };
    const alices = await server.as(alice.token).post('/api/v1/models/create', { id: 'alice-shared', name: 'Shared', base_model_id: 'gpt-open', access_control: write });
    expect(alices.status).toBe(200);
    expect((await server.as(mallory.token).post(`/api/v1/models/model/update${q('alice-shared')}`, { ...alices.body, base_model_id: 'gpt-secret' })).status).toBe(400);
    // …and Alice cannot move a model of Mallory's (who may not use it) there either.
    const mallorys = await server.as(mallory.token).post('/api/v1/models/create', { id: 'mallory-shared', name: 'Shared', base_model_id: 'gpt-open', access_control: { read: { user_ids: [alice.id], group_ids: [] }, write: { user_ids: [alice.id], group_ids: [] } } });
    const byAlice = await server.as(alice.token).post(`/api/v1/models/model/update${q('mallory-shared')}`, { ...mallorys.body, base_model_id: 'gpt-secret' });
    expect(byAlice.status).toBe(400);
    expect(byAlice.body.detail).toMatch(/owner/);

    // An admin's model lends its base model to its readers, so only an admin changes its base model.
    const adminModel = await server.as(admin.token).post('/api/v1/models/create', { id: 'admin-writable', name: 'Team', base_model_id: 'gpt-open', access_control: write });
    expect((await server.as(mallory.token).post(`/api/v1/models/model/update${q('admin-writable')}`, { ...adminModel.body, name: 'Renamed' })).status).toBe(200);
    expect((await server.as(mallory.token).post(`/api/v1/models/model/update${q('admin-writable')}`, { ...adminModel.body, base_model_id: 'gpt-secret' })).status).toBe(400);
    expect((await server.as(admin.token).get(`/api/v1/models/model${q('admin-writable')}`)).body.base_model_id).toBe('gpt-open');
  });

  it('refuses a custom model on a restricted base model through /api, /v1 and the task endpoints, sending nothing upstream', async () => {
    await plant(mallory, 'planted-wrap', 'gpt-secret');
    expect(await availableIds(mallory)).not.toContain('planted-wrap');
    const refused = await server.as(mallory.token).post('/api/chat/completions', { model: 'planted-wrap', messages, stream: false });
    expect(refused.status).toBe(404);
    expect(refused.body.detail).toMatch(/planted-wrap/);
    expect(await useEverywhere(mallory, 'planted-wrap')).toEqual(refusedEverywhere);
    expect(openai.chats()).toHaveLength(0);
    // The same wrapper shared by its owner works for nobody but the people allowed the base model.
    expect(await useEverywhere(alice, 'planted-wrap')).toEqual(refusedEverywhere);
    expect(await useEverywhere(mallory, 'gpt-secret')).toEqual(refusedEverywhere);

    await server.as(admin.token).post('/api/v1/models/config', { BASE_MODELS_AVAILABLE_TO_ALL: false });
    await plant(mallory, 'planted-open', 'gpt-open');
    expect(await useEverywhere(mallory, 'planted-open')).toEqual(refusedEverywhere);
    expect(openai.chats()).toHaveLength(0);
  });

  it("does not lend a user's base model to the people they share a custom model with", async () => {
    const shared = await server.as(alice.token).post('/api/v1/models/create', { id: 'alice-for-all', name: 'For all', base_model_id: 'gpt-secret', access_control: { read: { user_ids: [mallory.id], group_ids: [] } } });
    expect(shared.status).toBe(200);
    expect(await useEverywhere(alice, 'alice-for-all')).toEqual(answeredEverywhere);
    expect(await availableIds(alice)).toContain('alice-for-all');

    openai.reset();
    expect((await server.as(mallory.token).get('/api/v1/models/list')).body.map((m: { id: string }) => m.id)).toContain('alice-for-all');
    expect(await availableIds(mallory)).not.toContain('alice-for-all');
    expect(await useEverywhere(mallory, 'alice-for-all')).toEqual(refusedEverywhere);
    expect(openai.chats()).toHaveLength(0);

    // Once Alice loses the base model, her model stops working for her too.
    await server.as(admin.token).post(`/api/v1/models/model/update${q('gpt-secret')}`, { id: 'gpt-secret', name: 'Secret', base_model_id: null, params: {}, meta: {}, access_control: {}, is_active: true });
    expect(await useEverywhere(alice, 'alice-for-all')).toEqual(refusedEverywhere);
    await server.as(admin.token).post(`/api/v1/models/model/update${q('gpt-secret')}`, { id: 'gpt-secret', name: 'Secret', base_model_id: null, params: {}, meta: {}, access_control: { read: { user_ids: [alice.id], group_ids: [] } }, is_active: true });
  });

  it("lends an admin's custom model's base model to its readers (the curated models of an office without open base models)", async () => {
    const curated = await server.as(admin.token).post('/api/v1/models/create', { id: 'curated-secret', name: 'Curated', base_model_id: 'gpt-secret', access_control: null });
    expect(curated.status).toBe(200);
    await server.as(admin.token).post('/api/v1/models/config', { BASE_MODELS_AVAILABLE_TO_ALL: false });
    expect(await availableIds(mallory)).toContain('curated-secret');
    expect(await availableIds(mallory)).not.toContain('gpt-secret');
    expect(await useEverywhere(mallory, 'curated-secret')).toEqual(answeredEverywhere);
  });
});
