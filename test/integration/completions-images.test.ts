import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TASK_CONFIG } from '../../server/contracts/tasks';
import { startFakeOllama, type FakeOllama } from '../fixtures/fake-ollama';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { uploadFile } from './knowledge-helpers';

// Issue 27, item 5: images attached to a message reach models that see.

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
type Sent = Array<{ role: string; content: unknown }>;

describe('images attached to a message', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let openai: FakeOpenAI;
  let ollama: FakeOllama;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin);
    bob = await buildUser(server, admin);
    openai = await startFakeOpenAI({ models: ['gpt-fake'] });
    ollama = await startFakeOllama({ models: ['llava-fake:latest'] });
    const as = server.as(admin.token);
    await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
    await as.post('/local/config/update', { LOCAL_BASE_URLS: [ollama.url] });
    const off = { ...DEFAULT_TASK_CONFIG, ENABLE_TITLE_GENERATION: false, ENABLE_TAGS_GENERATION: false, ENABLE_FOLLOW_UP_GENERATION: false };
    expect((await as.post('/api/v1/tasks/config/update', off)).status).toBe(200);
    const blind = await as.post('/api/v1/models/create', { id: 'blind', name: 'Blind', base_model_id: 'gpt-fake', params: {}, meta: { capabilities: { vision: false } }, access_control: null });
    expect(blind.status, blind.text).toBe(200);
  });
  afterAll(async () => {
    await server.close();
    await openai.close();
    await ollama.close();
  });

  it('go to an OpenAI-compatible model as image_url parts (data URLs) beside the question', async () => {
    const image = await uploadFile(server, alice, 'dot.png', PNG);
    const res = await server.as(alice.token).post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'What is in this picture?' }], files: [{ type: 'file', id: image }] });
    expect(res.status, res.text).toBe(200);
    const sent = openai.lastChat()!.body.messages as Sent;
    expect(sent.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'What is in this picture?' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.toString('base64')}` } },
      ],
    });
    // The picture is not also read as a document.
    expect(res.body.sources ?? []).toEqual([]);
  });

  it('go to an Ollama model as base64 `images`', async () => {
    const image = await uploadFile(server, alice, 'dot.png', PNG);
    const res = await server.as(alice.token).post('/api/chat/completions', { model: 'llava-fake:latest', messages: [{ role: 'user', content: 'Describe it' }], files: [{ type: 'file', id: image }] });
    expect(res.status, res.text).toBe(200);
    const sent = ollama.lastChat()!.body as { messages: Array<{ role: string; content: string; images?: string[] }> };
    expect(sent.messages.at(-1)).toMatchObject({ role: 'user', content: 'Describe it', images: [PNG.toString('base64')] });
  });

  it('stay out of the request of a model whose settings say it cannot see', async () => {
    const image = await uploadFile(server, alice, 'dot.png', PNG);
    const res = await server.as(alice.token).post('/api/chat/completions', { model: 'blind', messages: [{ role: 'user', content: 'What is in this picture?' }], files: [{ type: 'file', id: image }] });
    expect(res.status, res.text).toBe(200);
    const sent = openai.lastChat()!.body.messages as Sent;
    expect(JSON.stringify(sent)).not.toContain('image_url');
    expect(sent.at(-1)?.content).toBe('What is in this picture?');
  });

  it("cannot be someone else's image, nor an unknown one", async () => {
    const image = await uploadFile(server, alice, 'dot.png', PNG);
    const before = openai.chats().length;
    const other = await server.as(bob.token).post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'Show me' }], files: [{ type: 'file', id: image }] });
    expect(other.status).toBe(403);
    const unknown = await server.as(bob.token).post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'Show me' }], files: [{ type: 'file', id: 'no-such-file' }] });
    expect(unknown.status).toBe(404);
    expect(openai.chats().length).toBe(before);
  });

  it('a text file stays a document, not an image', async () => {
    const memo = await uploadFile(server, alice, 'memo.txt', 'The cafeteria serves lentil soup on Fridays.');
    const res = await server.as(alice.token).post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'Summarize' }], files: [{ type: 'file', id: memo }] });
    expect(res.status, res.text).toBe(200);
    const sent = openai.lastChat()!.body.messages as Sent;
    expect(sent.at(-1)?.content).toBe('Summarize');
    expect(JSON.stringify(sent)).toContain('lentil soup');
  });
});
