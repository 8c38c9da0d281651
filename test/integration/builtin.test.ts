import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { tinyGguf, writeTinyGguf } from '../fixtures/tiny-gguf';
import { createBase, query, uploadFile, waitForFiles } from './knowledge-helpers';

/**
 * Built-in models end to end: a tiny generated GGUF is imported, read, chatted with through
 * /api/chat/completions (streamed, aborted, by two users at once), used as the RAG embedding
 * engine, unloaded when idle; downloads resume after a cut and check their SHA-256; a file that
 * makes llama.cpp abort is refused while the service keeps answering.
 */
let server: TestServer;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
let files: string;
let modelId: string;
const goodBytes = tinyGguf();

function upload(bytes: Buffer, name: string, extra: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(extra)) form.append(k, v);
  form.append('file', new Blob([bytes]), name);
  return server.as(admin.token).raw('POST', '/builtin/models/import', form);
}

function sseContent(text: string): { content: string; chunks: any[] } {
  const chunks = text
    .split('\n')
    .filter((l) => l.startsWith('data: ') && l !== 'data: [DONE]')
    .map((l) => JSON.parse(l.slice(6)));
  return { content: chunks.map((c) => c.choices?.[0]?.delta?.content ?? '').join(''), chunks };
}

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  files = mkdtempSync(path.join(os.tmpdir(), 'parley-gguf-'));
  server = await startTestServer();
  admin = await signupAdmin(server);
  alice = await buildUser(server, admin, 'user', 'Alice');
  bob = await buildUser(server, admin, 'user', 'Bob');
}, 60_000);

afterAll(async () => {
  await server?.close();
  rmSync(files, { recursive: true, force: true });
});

describe('model library', () => {
  it('imports an uploaded GGUF and lists what its header says', async () => {
    const res = await upload(goodBytes, 'tiny-llama.F32.gguf');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ name: 'Tiny Test Llama', file_name: 'tiny-llama.F32.gguf', size: goodBytes.length, architecture: 'llama', context_length: 2048, quantization: 'F32', kind: 'chat', status: 'ready' });
    expect(res.body.ram_estimate).toBeGreaterThan(goodBytes.length);
    modelId = res.body.id;
    const listed = await server.as(alice.token).get('/builtin/models');
    expect(listed.status).toBe(200);
    expect(listed.body.map((m: { id: string }) => m.id)).toContain(modelId);
  }, 60_000);

  it('offers a ready chat model in /api/models under the entry id', async () => {
    const models = await server.as(admin.token).get('/api/models');
    expect(models.status).toBe(200);
    const entry = (models.body.data ?? models.body).find((m: { id: string }) => m.id === modelId);
    expect(entry).toMatchObject({ id: modelId, provider: 'builtin' });
  });

  it('imports a .gguf from a path on the server for admins, and refuses relative paths', async () => {
    const file = writeTinyGguf(path.join(files, 'second.gguf'), { seed: 11 });
    const res = await server.as(admin.token).post('/builtin/models/import', { path: file, name: 'Second' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: 'second', name: 'Second', status: 'ready' });
    const relative = await server.as(admin.token).post('/builtin/models/import', { path: 'second.gguf' });
    expect(relative.status).toBe(400);
    expect(relative.body.detail).toMatch(/absolute path/);
    expect((await server.as(admin.token).delete('/builtin/models/second')).body).toBe(true);
    expect((await server.as(admin.token).get('/builtin/models/second')).status).toBe(404);
  }, 60_000);

  it('refuses a file that is not a GGUF with the reason', async () => {
    const res = await upload(Buffer.from('definitely not a model'), 'fake.gguf');
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/not a usable GGUF model: not a GGUF model file/);
    const wrongName = await upload(goodBytes, 'model.txt');
    expect(wrongName.status).toBe(400);
    expect(wrongName.body.detail).toMatch(/Only \.gguf models and whisper \.bin models/);
  });

  it('refuses a GGUF that makes llama.cpp abort, and the service keeps answering', async () => {
    const broken = tinyGguf({ omit: ['llama.feed_forward_length'] });
    const res = await upload(broken, 'broken.gguf');
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/not a loadable GGUF model: The model runtime stopped: .*GGML_ASSERT/);
    expect((await server.anon.get('/health')).status).toBe(200);
    const models = await server.as(alice.token).get('/builtin/models');
    expect(models.body.map((m: { file_name: string }) => m.file_name)).not.toContain('broken.gguf');
  }, 60_000);
});

describe('chatting with a built-in model', () => {
  const ask = (user: TestUser, body: Record<string, unknown>, init?: RequestInit) =>
    server.as(user.token).post('/api/chat/completions', { model: modelId, messages: [{ role: 'user', content: 'hello there' }], temperature: 0, ...body }, init);

  it('streams an answer as OpenAI chunks with usage, ending in [DONE]', async () => {
    const res = await ask(alice, { stream: true, max_tokens: 12 });
    expect(res.status, res.text).toBe(200);
    expect(res.text.trim().endsWith('data: [DONE]')).toBe(true);
    const { content, chunks } = sseContent(res.text);
    expect(content.length).toBeGreaterThan(0);
    expect(chunks.filter((c) => c.choices?.[0]?.delta?.content).length).toBeGreaterThan(1);
    const last = chunks.filter((c) => c.usage).at(-1);
    expect(last.usage.completion_tokens).toBe(12);
    expect(last.usage.prompt_tokens).toBeGreaterThan(3);
    expect(chunks.at(-1).choices[0].finish_reason).toBe('length');
  }, 60_000);

  it('answers the same text without streaming (greedy decoding is deterministic)', async () => {
    const streamed = sseContent((await ask(alice, { stream: true, max_tokens: 12 })).text).content;
    const res = await ask(alice, { max_tokens: 12 });
    expect(res.status, res.text).toBe(200);
    expect(res.body.choices[0].message.content).toBe(streamed);
    expect(res.body.usage.completion_tokens).toBe(12);
  }, 60_000);

  it('answers two users at once', async () => {
    const [a, b] = await Promise.all([ask(alice, { max_tokens: 16 }), ask(bob, { max_tokens: 16 })]);
    expect(a.status, a.text).toBe(200);
    expect(b.status, b.text).toBe(200);
    expect(a.body.choices[0].message.content).toBe(b.body.choices[0].message.content);
  }, 60_000);

  it('answers through a custom model built on it, with its system prompt, only for whom it is shared with', async () => {
    const created = await server.as(admin.token).post('/api/v1/models/create', {
      id: 'tiny-helper',
      name: 'Tiny helper',
      base_model_id: modelId,
      params: { system: 'You are a terse helper who answers in few words.' },
      meta: {},
      access_control: { read: { group_ids: [], user_ids: [alice.id] }, write: { group_ids: [], user_ids: [] } },
    });
    expect(created.status, created.text).toBe(200);
    const plain = await ask(alice, { max_tokens: 4 });
    const helped = await ask(alice, { model: 'tiny-helper', max_tokens: 4 });
    expect(helped.status, helped.text).toBe(200);
    expect(helped.body.usage.completion_tokens).toBe(4);
    expect(helped.body.usage.prompt_tokens).toBeGreaterThan(plain.body.usage.prompt_tokens + 5);
    const refused = await ask(bob, { model: 'tiny-helper', max_tokens: 4 });
    expect(refused.status).toBe(404);
  }, 60_000);

  it('stops generating when the client goes away, and the next request is answered', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const res = await fetch(`${server.url}/api/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: modelId, messages: [{ role: 'user', content: 'go on' }], stream: true, max_tokens: 1900 }),
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    await reader.read().catch(() => undefined);
    const next = await ask(bob, { max_tokens: 4 });
    expect(next.status, next.text).toBe(200);
    expect(next.body.usage.completion_tokens).toBe(4);
    // 1900 tokens would take seconds on one thread; the aborted one must have freed the runtime.
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 60_000);

  it('refuses a message longer than the context clearly', async () => {
    const res = await ask(alice, { messages: [{ role: 'user', content: 'the '.repeat(3000) }], max_tokens: 4 });
    expect(res.status).toBeGreaterThanOrEqual(200);
    const text = res.status === 200 ? JSON.stringify(res.body) : res.body.detail;
    expect(text).toMatch(/too long for this model's context/);
  }, 60_000);

  it('unloads the model after the idle time', async () => {
    const set = await server.as(admin.token).post('/builtin/config', { idle_unload_seconds: 1 });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({ enabled: true, idle_unload_seconds: 1, runtime: { threads: expect.any(Number) } });
    expect((await ask(alice, { max_tokens: 2 })).status).toBe(200);
    expect((await server.as(admin.token).get('/builtin/config')).body.runtime.loaded).toEqual([modelId]);
    const after = await waitFor(
      () => server.as(admin.token).get('/builtin/config'),
      (r) => r.body.runtime.loaded.length === 0,
      5_000,
    );
    expect(after.body.runtime.loaded).toEqual([]);
    // Loaded again on the next use.
    expect((await ask(alice, { max_tokens: 2 })).status).toBe(200);
    await server.as(admin.token).post('/builtin/config', { idle_unload_seconds: 300 });
  }, 60_000);

  it('hides built-in models when disabled', async () => {
    await server.as(admin.token).post('/builtin/config', { enabled: false });
    const models = await server.as(admin.token).get('/api/models');
    expect((models.body.data ?? models.body).some((m: { id: string }) => m.id === modelId)).toBe(false);
    await server.as(admin.token).post('/builtin/config', { enabled: true });
    const again = await server.as(admin.token).get('/api/models');
    expect((again.body.data ?? again.body).some((m: { id: string }) => m.id === modelId)).toBe(true);
  });

  it('rejects bad settings with 400 naming the field', async () => {
    const res = await server.as(admin.token).post('/builtin/config', { threads: -1 });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/threads/);
  });
});

describe('built-in embeddings for RAG', () => {
  it('embeds knowledge through a GGUF model chosen as the builtin engine', async () => {
    const imported = await upload(tinyGguf({ seed: 5 }), 'tiny-embed.gguf', { kind: 'embedding', name: 'Tiny Embed' });
    expect(imported.status, imported.text).toBe(200);
    expect(imported.body.kind).toBe('embedding');
    const base = await createBase(server, alice, 'Builtin RAG');
    const file = await uploadFile(server, alice, 'notes.txt', 'Parley runs small language models on the laptop itself.\n\nThe office coffee machine is on the second floor.');
    const set = await server.as(admin.token).post('/api/v1/retrieval/embedding/update', { embedding_engine: 'builtin', embedding_model: imported.body.id });
    expect(set.status, set.text).toBe(200);
    // The first embedding starts the runtime process and loads the model: slow on a busy machine.
    const add = await server.as(alice.token).post(`/api/knowledge/${base}/file/add`, { file_id: file });
    expect(add.status, add.text).toBe(200);
    const added = (await waitForFiles(server, alice, base, 90_000)).find((f) => f.id === file)!;
    expect(added.status).toBe('completed');
    const status = await waitFor(
      () => server.as(admin.token).get('/api/v1/retrieval/embedding'),
      (r) => r.body.reembedding.status !== 'running',
    );
    expect(status.body.reembedding.status).toBe('idle');
    const found = await query(server, alice, [base], 'language models on the laptop', { k: 2, hybrid: false, relevance_threshold: 0 });
    expect(found.documents.length).toBeGreaterThan(0);
    // Vector-only search with the chunk's own text: the model embeds it identically again.
    const exact = await query(server, alice, [base], found.documents[0]!, { k: 1, hybrid: false, relevance_threshold: 0 });
    expect(exact.documents[0]).toBe(found.documents[0]);
    expect(exact.distances[0]).toBeGreaterThan(0.99);
    await server.as(admin.token).post('/api/v1/retrieval/embedding/update', { embedding_engine: '', embedding_model: '' });
  }, 180_000);
});

describe('downloads', () => {
  let http: Server;
  let base: string;
  const seen: Array<{ url: string; range?: string }> = [];
  let cutOnce = true;

  beforeAll(async () => {
    http = createServer((req, res) => {
      seen.push({ url: req.url ?? '', range: req.headers.range });
      if (req.url?.startsWith('/stall')) {
        res.writeHead(200, { 'content-length': String(goodBytes.length) });
        res.write(goodBytes.subarray(0, 1000));
        return; // never finishes
      }
      const range = /bytes=(\d+)-/.exec(req.headers.range ?? '');
      if (range) {
        const start = Number(range[1]);
        res.writeHead(206, { 'content-length': String(goodBytes.length - start), 'content-range': `bytes ${start}-${goodBytes.length - 1}/${goodBytes.length}` });
        res.end(goodBytes.subarray(start));
        return;
      }
      res.writeHead(200, { 'content-length': String(goodBytes.length) });
      if (req.url?.startsWith('/cut') && cutOnce) {
        cutOnce = false;
        res.write(goodBytes.subarray(0, 300_000), () => res.destroy());
        return;
      }
      res.end(goodBytes);
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });

  const entry = (id: string) => server.as(admin.token).get(`/builtin/models/${id}`);

  it('resumes a cut download with a range request and checks the SHA-256', async () => {
    const sha256 = createHash('sha256').update(goodBytes).digest('hex');
    const res = await server.as(admin.token).post('/builtin/models/download', { url: `${base}/cut/tiny-download.gguf`, sha256 });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: 'tiny-download', status: 'downloading' });
    // A finished download is loaded once in a new runtime process before it is ready.
    const done = await waitFor(
      () => entry(res.body.id),
      (r) => r.body.status !== 'downloading',
      90_000,
    );
    expect(done.body).toMatchObject({ status: 'ready', size: goodBytes.length, downloaded: goodBytes.length, architecture: 'llama', sha256 });
    const requests = seen.filter((s) => s.url.startsWith('/cut'));
    expect(requests.length).toBe(2);
    expect(requests[1]!.range).toMatch(/^bytes=\d+-$/);
    expect(Number(/=(\d+)-/.exec(requests[1]!.range!)![1])).toBeGreaterThan(0);
    const chat = await server.as(alice.token).post('/api/chat/completions', { model: 'tiny-download', messages: [{ role: 'user', content: 'hi' }], max_tokens: 3 });
    expect(chat.status, chat.text).toBe(200);
  }, 150_000);

  it('fails a download whose SHA-256 does not match', async () => {
    const res = await server.as(admin.token).post('/builtin/models/download', { url: `${base}/ok/wrong-sum.gguf`, sha256: '0'.repeat(64) });
    expect(res.status).toBe(200);
    const done = await waitFor(
      () => entry(res.body.id),
      (r) => r.body.status !== 'downloading',
    );
    expect(done.body.status).toBe('failed');
    expect(done.body.error).toMatch(/SHA-256 does not match/);
    const chat = await server.as(alice.token).post('/api/chat/completions', { model: res.body.id, messages: [{ role: 'user', content: 'hi' }] });
    expect(chat.status).not.toBe(200);
  }, 60_000);

  it('pauses, resumes and cancels a download', async () => {
    const res = await server.as(admin.token).post('/builtin/models/download', { url: `${base}/stall/slow.gguf` });
    await waitFor(
      () => entry(res.body.id),
      (r) => r.body.downloaded >= 1000,
    );
    const paused = await server.as(admin.token).post(`/builtin/models/${res.body.id}/pause`);
    expect(paused.body).toMatchObject({ status: 'paused', downloaded: 1000, size: goodBytes.length });
    const resumed = await server.as(admin.token).post(`/builtin/models/${res.body.id}/resume`);
    expect(resumed.body.status).toBe('downloading');
    await waitFor(
      () => Promise.resolve(seen.filter((s) => s.url.startsWith('/stall')).length),
      (n) => n >= 2,
    );
    expect(seen.filter((s) => s.url.startsWith('/stall')).at(-1)!.range).toBe('bytes=1000-');
    const cancel = await server.as(admin.token).post(`/builtin/models/${res.body.id}/cancel`);
    expect(cancel.body).toBe(true);
    expect((await entry(res.body.id)).status).toBe(404);
  }, 60_000);

  it('refuses a URL that is not http(s)', async () => {
    const res = await server.as(admin.token).post('/builtin/models/download', { url: 'file:///etc/passwd' });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/url/);
  });
});
