import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { DEFAULT_TASK_CONFIG } from '../../server/contracts/tasks';
import { addAndWait, createBase, uploadFile } from './knowledge-helpers';

const systemOf = (fake: FakeOpenAI) => {
  const messages = fake.lastChat()!.body.messages as Array<{ role: string; content: string }>;
  return messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n');
};

describe('retrieval in chat completions', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let fake: FakeOpenAI;
  let base: string;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin);
    bob = await buildUser(server, admin);
    fake = await startFakeOpenAI({ key: 'sk-chat', models: ['gpt-fake'] });
    const as = server.as(admin.token);
    await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: [fake.url], COMPAT_API_KEYS: ['sk-chat'], COMPAT_API_CONFIGS: {} });
    const off = { ...DEFAULT_TASK_CONFIG, ENABLE_TITLE_GENERATION: false, ENABLE_TAGS_GENERATION: false, ENABLE_FOLLOW_UP_GENERATION: false };
    expect((await as.post('/api/v1/tasks/config/update', off)).status).toBe(200);
    base = await createBase(server, alice, 'Falcon');
    const file = await uploadFile(server, alice, 'falcon.txt', 'Project Falcon status report.\n\nThe launch code for Project Falcon is AZURE-7421.');
    expect((await addAndWait(server, alice, base, file)).status).toBe('completed');
    const other = await uploadFile(server, alice, 'garden.txt', 'Water the basil every morning with rainwater.');
    expect((await addAndWait(server, alice, base, other)).status).toBe('completed');
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  it('puts the fact from a knowledge base into the provider prompt and streams the sources first', async () => {
    const res = await server.as(alice.token).post('/api/chat/completions', {
      model: 'gpt-fake',
      stream: true,
      messages: [{ role: 'user', content: 'What is the launch code for Project Falcon?' }],
      files: [{ type: 'collection', id: base }],
    });
    expect(res.status, res.text).toBe(200);
    expect(systemOf(fake)).toContain('AZURE-7421');
    expect(systemOf(fake)).toMatch(/<source id="1" name="Falcon">/);
    expect(systemOf(fake)).not.toContain('basil');
    const first = JSON.parse(res.text.split('\n\n')[0]!.slice('data: '.length));
    expect(first.sources[0]).toMatchObject({ source: { id: base, name: 'Falcon', type: 'collection' } });
    expect(first.sources[0].document[0]).toContain('AZURE-7421');
    expect(first.choices[0]?.delta?.content ?? '').toBe('');
  });

  it('says so when a knowledge base was searched and no passage cleared the relevance threshold: a status in the stream, a note to the model', async () => {
    const res = await server.as(alice.token).post('/api/chat/completions', {
      model: 'gpt-fake',
      stream: true,
      messages: [{ role: 'user', content: 'What is the capital city of Australia?' }],
      files: [{ type: 'collection', id: base }],
    });
    expect(res.status).toBe(200);
    expect(systemOf(fake)).not.toContain('AZURE-7421');
    expect(systemOf(fake)).not.toContain('<source');
    expect(systemOf(fake)).toContain('The knowledge base “Falcon” was searched for the user\'s latest message and no passage in it matched.');
    const frames = res.text.split('\n\n').filter((f: string) => f.startsWith('data: {')).map((f: string) => JSON.parse(f.slice('data: '.length)));
    expect(frames.some((f: { sources?: unknown }) => f.sources)).toBe(false);
    expect(frames.find((f: { status?: unknown }) => f.status)?.status).toEqual({ action: 'knowledge_unmatched', description: 'No passage in “Falcon” matched the question', done: true, names: ['Falcon'] });
    // Not streamed: the model is told all the same.
    const plain = await server.as(alice.token).post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'What is the capital city of Australia?' }], files: [{ type: 'collection', id: base }] });
    expect(plain.status).toBe(200);
    expect(plain.body.sources ?? []).toEqual([]);
    expect(systemOf(fake)).toContain('no passage in it matched');
  });

  it('tells nothing of a base whose passages matched', async () => {
    const res = await server.as(alice.token).post('/api/chat/completions', {
      model: 'gpt-fake',
      stream: true,
      messages: [{ role: 'user', content: 'How should I water the basil?' }],
      files: [{ type: 'collection', id: base }],
    });
    expect(res.status).toBe(200);
    expect(systemOf(fake)).toContain('basil');
    expect(systemOf(fake)).not.toContain('no passage');
    expect(res.text).not.toContain('knowledge_unmatched');
  });

  it('uses a custom model’s knowledge and indexes a chat file sent with the request', async () => {
    const as = server.as(admin.token);
    const created = await as.post('/api/v1/models/create', {
      id: 'falcon-helper',
      name: 'Falcon helper',
      base_model_id: 'gpt-fake',
      params: {},
      meta: { knowledge: [{ id: base, name: 'Falcon', type: 'collection' }] },
      access_control: null,
    });
    expect(created.status).toBe(200);
    await server.as(alice.token).post('/api/chat/completions', { model: 'falcon-helper', messages: [{ role: 'user', content: 'launch code for Project Falcon?' }] });
    expect(systemOf(fake)).toContain('AZURE-7421');

    const memo = await uploadFile(server, alice, 'memo.md', '# Memo\n\nThe cafeteria serves lentil soup on Fridays.');
    const res = await server.as(alice.token).post('/api/chat/completions', {
      model: 'gpt-fake',
      messages: [{ role: 'user', content: 'Which soup does the cafeteria serve on Fridays?' }],
      files: [{ type: 'file', id: memo }],
    });
    expect(res.status).toBe(200);
    expect(systemOf(fake)).toContain('lentil soup');
    expect(res.body.sources[0].source).toMatchObject({ id: memo, name: 'memo.md', type: 'file' });
  });

  it('never retrieves from a knowledge base the caller may not read', async () => {
    const res = await server.as(bob.token).post('/api/chat/completions', {
      model: 'gpt-fake',
      messages: [{ role: 'user', content: 'What is the launch code for Project Falcon?' }],
      files: [{ type: 'collection', id: base }],
    });
    expect(res.status).toBe(200);
    expect(systemOf(fake)).not.toContain('AZURE-7421');
  });
});
