import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuiltinRepo } from '../../server/builtin/builtin.repo';
import { createModelLibrary } from '../../server/builtin/model-library';
import { LocalRerankError } from '../../server/builtin';
import { createHash } from 'node:crypto';
import { closeDatabase, migrate, openDatabase } from '../../server/platform/db/knex';
import { createLogger } from '../../server/platform/log';
import { systemClock } from '../../server/platform/clock';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { tinyGguf } from '../fixtures/tiny-gguf';

/**
 * Built-in rerankers: a tiny generated cross-encoder GGUF (Qwen3 layout, rank pooling, a
 * classification head) is recognised as a reranker when imported and scores documents in the
 * runtime process; a pinned file of the recommended list is recognised by its SHA-256.
 */
let server: TestServer;
let admin: TestUser;
const rerankerBytes = tinyGguf({ reranker: true, seed: 21 });

function upload(bytes: Buffer, name: string) {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  return server.as(admin.token).raw('POST', '/builtin/models/import', form);
}

beforeAll(async () => {
  server = await startTestServer();
  admin = await signupAdmin(server);
}, 60_000);

afterAll(async () => {
  await server?.close();
});

describe('a built-in reranker', () => {
  let id: string;

  it('is recognised as a reranker when imported, and stays out of the chat model list', async () => {
    const res = await upload(rerankerBytes, 'tiny-reranker.gguf');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ kind: 'reranker', architecture: 'qwen3', status: 'ready', sha256: createHash('sha256').update(rerankerBytes).digest('hex') });
    id = res.body.id;
    const models = await server.as(admin.token).get('/api/models');
    expect(JSON.stringify(models.body)).not.toContain(id);
  }, 60_000);

  it('scores every document against the query in the runtime, best first, the same each time', async () => {
    const documents = ['The lighthouse key hangs in the harbourmaster office.', 'Cider apples are pressed in October.', 'The comet was low in the western sky.'];
    const first = await server.services.builtin.reranker.rerank({ model: id, query: 'where is the lighthouse key', documents, topN: 3 });
    expect(first.map((r) => r.index).sort()).toEqual([0, 1, 2]);
    for (const r of first) expect(r.relevance_score).toBeGreaterThan(0);
    for (const r of first) expect(r.relevance_score).toBeLessThanOrEqual(1);
    expect(first.map((r) => r.relevance_score)).toEqual([...first.map((r) => r.relevance_score)].sort((a, b) => b - a));
    // A tiny random model has no opinion, but it is a deterministic one, and the scores differ by document.
    expect(new Set(first.map((r) => r.relevance_score)).size).toBe(3);
    expect(await server.services.builtin.reranker.rerank({ model: id, query: 'where is the lighthouse key', documents, topN: 3 })).toEqual(first);
    expect(await server.services.builtin.reranker.rerank({ model: id, query: 'where is the lighthouse key', documents, topN: 1 })).toEqual(first.slice(0, 1));
  }, 60_000);

  it('refuses a chat model and an unknown id with the reason', async () => {
    const chat = await upload(tinyGguf({ seed: 3 }), 'tiny-chat.gguf');
    expect(chat.body.kind).toBe('chat');
    await expect(server.services.builtin.reranker.rerank({ model: chat.body.id, query: 'q', documents: ['d'], topN: 1 })).rejects.toThrow(/not a reranker/);
    await expect(server.services.builtin.reranker.rerank({ model: 'nope', query: 'q', documents: ['d'], topN: 1 })).rejects.toBeInstanceOf(LocalRerankError);
  }, 60_000);
});

describe('a pinned model imported from a file (no download)', () => {
  it('is recognised by its SHA-256: the recommended name and kind, and the checksum kept', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-pinned-'));
    const db = openDatabase(dir);
    try {
      await migrate(db);
      const sha256 = createHash('sha256').update(rerankerBytes).digest('hex');
      const library = createModelLibrary({
        repo: createBuiltinRepo(db),
        dir: path.join(dir, 'models'),
        probe: async () => undefined,
        unload: () => undefined,
        clock: systemClock,
        log: createLogger({ level: 'silent', stdout: false }).log,
        pinned: [{ name: 'bge-reranker-v2-m3 multilingual (Q8_0)', kind: 'reranker', sha256 }],
      });
      await library.init();
      const { Readable } = await import('node:stream');
      const entry = await library.importStream(Readable.from([rerankerBytes]), { fileName: 'from-the-usb-stick.gguf', caller: { id: 'admin' } });
      expect(entry).toMatchObject({ name: 'bge-reranker-v2-m3 multilingual (Q8_0)', kind: 'reranker', sha256, status: 'ready' });
      await library.stop();
    } finally {
      await closeDatabase(db);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the recommended list', () => {
  it('offers a multilingual embedding model and a reranker, each pinned by SHA-256', async () => {
    const user = await buildUser(server, admin, 'user');
    const list = (await server.as(user.token).get('/builtin/recommended')).body as Array<{ kind: string; sha256?: string; url: string; name: string }>;
    const embedding = list.find((m) => m.name.startsWith('bge-m3'));
    const reranker = list.find((m) => m.kind === 'reranker');
    expect(embedding).toMatchObject({ kind: 'embedding', sha256: '950f4a8e5e19477a6d3c26d2f162233c20002c601f75e4b002e3239997821167' });
    expect(reranker).toMatchObject({ sha256: 'a43c7c9b11a4c1517e5bf95151960e1621d1b72f7a493364b01e386cf1aaa1d3' });
    for (const m of [embedding!, reranker!]) expect(m.url).toMatch(/^https:\/\/huggingface\.co\/gpustack\/.*\.gguf$/);
  });
});
