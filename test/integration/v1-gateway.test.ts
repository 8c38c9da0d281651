import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { fakeEmbedding, startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { DEFAULT_TASK_CONFIG } from '../../server/contracts/tasks';
import { OFFLINE_DIMS, OFFLINE_MODEL } from '../../server/retrieval/embedding/offline-embedder';
import { addAndWait, createBase, uploadFile } from './knowledge-helpers';

const cosine = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);

async function keyOf(server: TestServer, user: TestUser): Promise<string> {
  const res = await server.as(user.token).post('/api/v1/auths/api_key');
  expect(res.status).toBe(200);
  return res.body.api_key;
}

describe('/v1 embeddings, knowledge sources and the admin usage table', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let upstream: FakeOpenAI;
  let client: OpenAI;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin, 'user', 'Alice');
    upstream = await startFakeOpenAI({ key: 'sk-upstream', models: ['gpt-fake', 'fake-embed'] });
    const as = server.as(admin.token);
    await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: [upstream.url], COMPAT_API_KEYS: ['sk-upstream'], COMPAT_API_CONFIGS: {} });
    const off = { ...DEFAULT_TASK_CONFIG, ENABLE_TITLE_GENERATION: false, ENABLE_TAGS_GENERATION: false, ENABLE_FOLLOW_UP_GENERATION: false };
    expect((await as.post('/api/v1/tasks/config/update', off)).status).toBe(200);
    client = new OpenAI({ apiKey: await keyOf(server, alice), baseURL: `${server.url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  it('embeds with the built-in offline embedder when no engine is configured, in float and base64', async () => {
    const texts = ['The cat sat on the mat', 'A cat sat on a mat', 'Quarterly tax filing deadlines'];
    const asFloat = await client.embeddings.create({ model: 'text-embedding-3-small', input: texts, encoding_format: 'float' });
    expect(asFloat.model).toBe(OFFLINE_MODEL);
    expect(asFloat.data.map((d) => d.index)).toEqual([0, 1, 2]);
    const [a, b, c] = asFloat.data.map((d) => d.embedding);
    expect(a).toHaveLength(OFFLINE_DIMS);
    expect(cosine(a!, b!)).toBeGreaterThan(cosine(a!, c!));
    expect(asFloat.usage.prompt_tokens).toBeGreaterThan(0);

    // The SDK asks for base64 by default and decodes it itself.
    const decoded = await client.embeddings.create({ model: 'text-embedding-3-small', input: texts[0]! });
    expect(decoded.data[0]!.embedding).toHaveLength(OFFLINE_DIMS);
    decoded.data[0]!.embedding.forEach((x, i) => expect(x).toBeCloseTo(a![i]!, 6));

    const raw = await server.as(alice.token).post('/v1/embeddings', { model: 'any', input: 'The cat sat on the mat', encoding_format: 'base64' });
    expect(typeof raw.body.data[0].embedding).toBe('string');
    expect(Buffer.from(raw.body.data[0].embedding, 'base64').length).toBe(OFFLINE_DIMS * 4);
  });

  it('refuses embedding requests it cannot answer with OpenAI errors', async () => {
    const empty = await client.embeddings.create({ model: 'm', input: [] }).catch((e: unknown) => e);
    expect(empty).toBeInstanceOf(OpenAI.BadRequestError);
    const size = await client.embeddings.create({ model: 'm', input: 'x', dimensions: 7 }).catch((e: unknown) => e);
    expect(size).toBeInstanceOf(OpenAI.BadRequestError);
    expect((size as InstanceType<typeof OpenAI.BadRequestError>).message).toMatch(/384/);
  });

  it('refuses a body over the size limit with 413 in OpenAI’s error shape', async () => {
    const huge = 'x'.repeat(11 * 1024 * 1024);
    const viaSdk = await client.chat.completions.create({ model: 'gpt-fake', messages: [{ role: 'user', content: huge }] }).catch((e: unknown) => e);
    expect(viaSdk).toBeInstanceOf(OpenAI.APIError);
    expect((viaSdk as InstanceType<typeof OpenAI.APIError>).status).toBe(413);
    const raw = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${client.apiKey}` },
      body: JSON.stringify({ model: 'gpt-fake', messages: [{ role: 'user', content: huge }] }),
    });
    expect(raw.status).toBe(413);
    const body = (await raw.json()) as { error?: { message?: string; type?: string }; detail?: unknown };
    expect(body.detail).toBeUndefined();
    expect(body.error?.message).toEqual(expect.any(String));
    expect(body.error?.type).toEqual(expect.any(String));
  });

  it("returns a custom model's knowledge sources in the `sources` extension field", async () => {
    // The caller must be able to read the knowledge: Alice's own base, in a model the admin made.
    const base = await createBase(server, alice, 'Falcon');
    const file = await uploadFile(server, alice, 'falcon.txt', 'Project Falcon status report.\n\nThe launch code for Project Falcon is AZURE-7421.');
    expect((await addAndWait(server, alice, base, file)).status).toBe('completed');
    const created = await server.as(admin.token).post('/api/v1/models/create', {
      id: 'falcon-helper',
      name: 'Falcon helper',
      base_model_id: 'gpt-fake',
      params: { system: 'You know Project Falcon.' },
      meta: { knowledge: [{ id: base, name: 'Falcon', type: 'collection' }] },
      access_control: null,
    });
    expect(created.status, created.text).toBe(200);
    upstream.reply({ text: 'The code is AZURE-7421 [1].' });
    const question = [{ role: 'user' as const, content: 'What is the launch code for Project Falcon?' }];
    const answer = (await client.chat.completions.create({ model: 'falcon-helper', messages: question })) as OpenAI.ChatCompletion & { sources?: any[] };
    const system = upstream.lastChat()?.body.messages[0];
    expect(system.role).toBe('system');
    expect(system.content).toContain('You know Project Falcon.');
    expect(system.content).toContain('AZURE-7421');
    expect(answer.sources?.[0]).toMatchObject({ source: { id: base, name: 'Falcon', type: 'collection' } });
    expect(answer.sources?.[0].document[0]).toContain('AZURE-7421');

    const stream = await client.chat.completions.create({ model: 'falcon-helper', messages: question, stream: true });
    const chunks: Array<OpenAI.ChatCompletionChunk & { sources?: any[] }> = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks[0]?.sources?.[0].source.id).toBe(base);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('The code is AZURE-7421 [1].');
  });

  it('shows admins the /v1 requests and tokens per day, user and model', async () => {
    upstream.reply({ text: 'counted', usage: { prompt_tokens: 11, completion_tokens: 2, total_tokens: 13 } });
    const before = await server.as(admin.token).get('/api/v1/usage');
    const row = (body: any) => body.rows.find((r: any) => r.user_id === alice.id && r.model === 'gpt-fake');
    const start = row(before.body) ?? { requests: 0, prompt_tokens: 0, total_tokens: 0 };
    await client.chat.completions.create({ model: 'gpt-fake', messages: [{ role: 'user', content: 'Hi' }] });
    await client.chat.completions.create({ model: 'gpt-fake', messages: [{ role: 'user', content: 'Hi' }], stream: true }).then(async (s) => {
      for await (const _ of s);
    });
    const today = new Date().toISOString().slice(0, 10);
    // A request's usage is recorded as its answer ends: the streamed one may land just after the client read [DONE].
    const usage = async () => {
      const res = await server.as(admin.token).get('/api/v1/usage?days=7');
      expect(res.status).toBe(200);
      return res.body;
    };
    await expect.poll(async () => row(await usage()), { timeout: 5000 }).toMatchObject({ day: today, user_name: 'Alice', requests: start.requests + 2, prompt_tokens: start.prompt_tokens + 22, total_tokens: start.total_tokens + 26 });
    const after = { body: await usage() };
    // Embeddings are recorded under the engine that made them, not the name the caller sent.
    expect(after.body.rows.some((r: any) => r.user_id === alice.id && r.model === OFFLINE_MODEL && r.requests >= 2)).toBe(true);
    expect(after.body.rows.some((r: any) => r.model === 'text-embedding-3-small')).toBe(false);

    expect((await server.as(alice.token).get('/api/v1/usage')).status).toBe(403);
    expect((await server.as(admin.token).get('/api/v1/usage?days=0')).status).toBe(400);
  });

  it('records the tokens a stream sent before its client left', async () => {
    const dave = await buildUser(server, admin, 'user', 'Dave');
    const key = await keyOf(server, dave);
    // 40 slow pieces; usage would only come with the last one, which the client never waits for.
    upstream.reply({ pieces: Array.from({ length: 40 }, (_, i) => `word${i} `), delayMs: 60, usage: { prompt_tokens: 5, completion_tokens: 40, total_tokens: 45 } });
    const controller = new AbortController();
    const res = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ model: 'gpt-fake', stream: true, messages: [{ role: 'user', content: 'Tell me a long story about the sea and its ships' }] }),
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    let seen = '';
    while (!seen.includes('word5')) seen += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    await upstream.waitForAbort();
    const row = async () => ((await server.as(admin.token).get('/api/v1/usage')).body.rows as any[]).find((r) => r.user_id === dave.id);
    await expect.poll(row, { timeout: 5000 }).toMatchObject({ model: 'gpt-fake', requests: 1 });
    const recorded = await row();
    // What was streamed (about six pieces) and the question are counted, not zero.
    expect(recorded.completion_tokens).toBeGreaterThan(0);
    expect(recorded.completion_tokens).toBeLessThan(40);
    expect(recorded.prompt_tokens).toBeGreaterThan(0);
    expect(recorded.total_tokens).toBe(recorded.prompt_tokens + recorded.completion_tokens);
  });

  it('embeds through a configured provider engine', async () => {
    const set = await server.as(admin.token).post('/api/v1/retrieval/embedding/update', { embedding_engine: 'compat', embedding_model: 'fake-embed' });
    expect(set.status, set.text).toBe(200);
    const res = await client.embeddings.create({ model: 'fake-embed', input: ['red apples', 'green pears'], encoding_format: 'float' });
    expect(res.model).toBe('compat:fake-embed');
    expect(upstream.requestsTo('/embeddings').length).toBeGreaterThan(0);
    res.data[0]!.embedding.forEach((x, i) => expect(x).toBeCloseTo(fakeEmbedding('red apples')[i]!, 5));
  });
});

describe('the /v1 rate limit', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    server = await startTestServer({ envVars: { PARLEY_V1_RATE_LIMIT: '3' } });
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin);
    bob = await buildUser(server, admin);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses a key past its requests per minute with 429 and Retry-After, leaving other keys alone', async () => {
    const aliceClient = new OpenAI({ apiKey: await keyOf(server, alice), baseURL: `${server.url}/v1`, maxRetries: 0 });
    for (let i = 0; i < 3; i += 1) await aliceClient.models.list();
    const limited = await aliceClient.models.list().catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
    const error = limited as InstanceType<typeof OpenAI.RateLimitError>;
    expect(error.type).toBe('rate_limit_error');
    expect(Number(error.headers?.get('retry-after'))).toBeGreaterThan(0);

    const bobClient = new OpenAI({ apiKey: await keyOf(server, bob), baseURL: `${server.url}/v1`, maxRetries: 0 });
    await expect(bobClient.models.list()).resolves.toBeDefined();
    // The limit is on /v1 only.
    expect((await server.as(alice.token).get('/api/v1/models/list')).status).toBe(200);
  });

  it('gives an account one budget for /v1 and /api/chat/completions, by key or by session', async () => {
    const carol = await buildUser(server, admin);
    const key = await keyOf(server, carol);
    // The limit is checked before the body: an empty body answers 400 while within it.
    expect((await server.as(key).get('/v1/models')).status).toBe(200);
    expect((await server.as(key).post('/api/chat/completions', {})).status).toBe(400);
    expect((await server.as(carol.token).post('/api/chat/completions', {})).status).toBe(400);
    // Three requests spent: the key is refused on either path, and so is the session.
    const byKey = await server.as(key).post('/api/chat/completions', {});
    expect(byKey.status).toBe(429);
    expect(Number(byKey.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await server.as(carol.token).post('/api/chat/completions', {})).status).toBe(429);
    expect((await server.as(carol.token).get('/v1/models')).status).toBe(429);
    expect((await server.as(key).get('/v1/models')).status).toBe(429);
  });
});
