import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { DEFAULT_TASK_CONFIG } from '../../server/contracts/tasks';

describe('answer ratings (ENABLE_MESSAGE_RATING)', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let fake: FakeOpenAI;
  let chat: string;
  let answer: string;
  let question: string;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin);
    bob = await buildUser(server, admin);
    fake = await startFakeOpenAI({ key: 'sk-chat', models: ['gpt-fake'] });
    const as = server.as(admin.token);
    await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: [fake.url], COMPAT_API_KEYS: ['sk-chat'], COMPAT_API_CONFIGS: {} });
    await as.post('/api/v1/tasks/config/update', { ...DEFAULT_TASK_CONFIG, ENABLE_TITLE_GENERATION: false, ENABLE_TAGS_GENERATION: false, ENABLE_FOLLOW_UP_GENERATION: false });
    chat = (await server.as(alice.token).post('/api/v1/chats/new', {})).body.id;
    const res = await server.as(alice.token).post('/api/chat/completions', { model: 'gpt-fake', chat_id: chat, messages: [{ role: 'user', content: 'Hi' }] });
    answer = res.body.message_id;
    question = res.body.user_message_id;
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  it('rates an answer with a reason, changes it, lists it, and takes it back with 0', async () => {
    const at = `/api/v1/chats/${chat}/messages/${answer}/rating`;
    const up = await server.as(alice.token).post(at, { rating: 1, reason: 'Accurate' });
    expect(up.status, up.text).toBe(200);
    expect(up.body).toMatchObject({ message_id: answer, rating: 1, reason: 'Accurate' });
    expect((await server.as(alice.token).post(at, { rating: -1 })).body).toMatchObject({ rating: -1, reason: null });
    expect((await server.as(alice.token).get(`/api/v1/chats/${chat}/ratings`)).body).toEqual([expect.objectContaining({ message_id: answer, rating: -1 })]);
    expect((await server.as(alice.token).post(at, { rating: 0 })).body).toBeNull();
    expect((await server.as(alice.token).get(`/api/v1/chats/${chat}/ratings`)).body).toEqual([]);
  });

  it('refuses bad ratings, questions, unknown messages and other people’s chats', async () => {
    const at = `/api/v1/chats/${chat}/messages/${answer}/rating`;
    expect((await server.as(alice.token).post(at, { rating: 5 })).status).toBe(422);
    expect((await server.as(alice.token).post(at, { rating: 1, reason: 'x'.repeat(1001) })).status).toBe(422);
    expect((await server.as(alice.token).post(`/api/v1/chats/${chat}/messages/${question}/rating`, { rating: 1 })).status).toBe(422);
    expect((await server.as(alice.token).post(`/api/v1/chats/${chat}/messages/nope/rating`, { rating: 1 })).status).toBe(404);
    expect((await server.as(bob.token).post(at, { rating: 1 })).status).toBe(403);
  });

  it('answers 403 while rating is turned off, and the public config says so', async () => {
    expect((await server.anon.get('/api/config')).body.features.enable_message_rating).toBe(true);
    const config = (await server.as(admin.token).get('/api/v1/auths/admin/config')).body;
    expect((await server.as(admin.token).post('/api/v1/auths/admin/config', { ...config, ENABLE_MESSAGE_RATING: false })).status).toBe(200);
    expect((await server.anon.get('/api/config')).body.features.enable_message_rating).toBe(false);
    const res = await server.as(alice.token).post(`/api/v1/chats/${chat}/messages/${answer}/rating`, { rating: 1 });
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatch(/turned off/);
  });
});
