import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { TEXT_FIXTURES } from '../fixtures/documents/build-documents';
import { addAndWait, createBase, query, uploadFile, waitForFiles } from './knowledge-helpers';
import { RetrievalSection } from '../../server/retrieval';

/** A tiny HTTP peer answering every request with `answer(body)`; records bodies. */
async function startPeer(answer: (body: any, req: { method?: string; headers: Record<string, unknown> }) => { status?: number; json?: unknown; text?: string }) {
  const bodies: any[] = [];
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (p: Buffer) => parts.push(p));
    req.on('end', () => {
      const raw = Buffer.concat(parts);
      let body: unknown = raw;
      if ((req.headers['content-type'] ?? '').includes('json')) body = JSON.parse(raw.toString('utf8'));
      bodies.push({ method: req.method, headers: req.headers, body });
      const out = answer(body, req);
      res.writeHead(out.status ?? 200, { 'content-type': out.text !== undefined ? 'text/plain' : 'application/json' });
      res.end(out.text ?? JSON.stringify(out.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('hybrid retrieval', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let base: string;
  let fake: FakeOpenAI;
  const settings = (body: Record<string, unknown>) => server.as(admin.token).post('/api/v1/retrieval/config/update', body);

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin);
    bob = await buildUser(server, admin);
    fake = await startFakeOpenAI({ key: 'sk-embed', models: ['embed-small'] });
    base = await createBase(server, alice, 'Facts');
    for (const [name, text] of Object.entries(TEXT_FIXTURES)) await addAndWait(server, alice, base, await uploadFile(server, alice, name, text));
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  it('finds a fact with the default settings and answers documents, metadata and relevances', async () => {
    const result = await query(server, alice, [base], 'What is the launch code for Project Falcon?');
    expect(result.documents[0]).toContain('AZURE-7421');
    expect(result.metadatas[0]).toMatchObject({ name: 'falcon.txt', collection: base });
    expect(result.distances[0]).toBeGreaterThanOrEqual(0.7);
    expect(result.distances[0]).toBeLessThanOrEqual(1);
  });

  it('drops passages under the relevance threshold: nothing comes back for an absent fact', async () => {
    const absent = await query(server, alice, [base], 'What is the capital city of Australia?');
    expect(absent.documents).toEqual([]);
    const everything = await query(server, alice, [base], 'What is the capital city of Australia?', { relevance_threshold: 0 });
    expect(everything.documents.length).toBeGreaterThan(0);
    const strict = await query(server, alice, [base], 'launch code Project Falcon', { relevance_threshold: 0.999 });
    expect(strict.documents.length).toBeLessThanOrEqual(1);
    await settings({ RELEVANCE_THRESHOLD: 0 });
    expect((await query(server, alice, [base], 'What is the capital city of Australia?')).documents.length).toBeGreaterThan(0);
    await settings({ RELEVANCE_THRESHOLD: 0.7 });
  });

  it('blends by HYBRID_BM25_WEIGHT: 1 is purely lexical, 0 purely semantic', async () => {
    const lexical = await query(server, alice, [base], 'basil watering', { hybrid_bm25_weight: 1, relevance_threshold: 0 });
    for (const [i, m] of lexical.metadatas.entries()) expect(lexical.distances[i]).toBeCloseTo(m.lexical, 5);
    const semantic = await query(server, alice, [base], 'basil watering', { hybrid_bm25_weight: 0, relevance_threshold: 0 });
    for (const [i, m] of semantic.metadatas.entries()) expect(semantic.distances[i]).toBeCloseTo(m.semantic, 5);
    // A misspelling only the semantic side (character trigrams) matches.
    const typo = await query(server, alice, [base], 'tomattos', { hybrid_bm25_weight: 1, relevance_threshold: 0.01 });
    expect(typo.documents).toEqual([]);
    const typoSemantic = await query(server, alice, [base], 'tomattos', { hybrid_bm25_weight: 0, relevance_threshold: 0.01 });
    expect(typoSemantic.documents.length).toBeGreaterThan(0);
  });

  it('respects TOP_K and a per-query k', async () => {
    await settings({ TOP_K: 2, TOP_K_RERANKER: 2, RELEVANCE_THRESHOLD: 0 });
    expect((await query(server, alice, [base], 'the')).documents.length).toBeLessThanOrEqual(2);
    expect((await query(server, alice, [base], 'room office warehouse', { k: 4 })).documents.length).toBe(4);
    await settings({ TOP_K: 5, TOP_K_RERANKER: 5, RELEVANCE_THRESHOLD: 0.4 });
  });

  it('searches only collections the caller may read', async () => {
    const res = await server.as(bob.token).post('/api/v1/retrieval/query/collection', { collection_names: [base], query: 'launch code' });
    expect(res.status).toBe(404);
    const bad = await server.as(bob.token).post('/api/v1/retrieval/query/collection', { collection_names: [], query: 'x' });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toContain('collection_names');
  });

  it('reorders with the external reranker and keeps TOP_K_RERANKER results', async () => {
    const reranker = await startPeer((body) => ({
      json: { results: (body.documents as string[]).map((d, index) => ({ index, relevance_score: d.includes('otter') || d.includes('Rotterdam') ? 0.95 : 0.1 })) },
    }));
    try {
      const saved = await settings({ RAG_RERANKING_ENGINE: 'external', RAG_EXTERNAL_RERANKER_URL: `${reranker.url}/rerank`, RAG_EXTERNAL_RERANKER_API_KEY: 'rr-secret-1', RAG_RERANKING_MODEL: 'rerank-fake', TOP_K_RERANKER: 1, RELEVANCE_THRESHOLD: 0.5 });
      expect(saved.body.RAG_EXTERNAL_RERANKER_API_KEY).toBe('rr-secret-1');
      // The key lives in the secret store, not in the stored settings.
      expect(JSON.stringify(await server.services.db('config').select())).not.toContain('rr-secret-1');
      const result = await query(server, alice, [base], 'warehouse location');
      expect(reranker.bodies[0].body).toMatchObject({ model: 'rerank-fake', query: 'warehouse location', top_n: 1 });
      expect(reranker.bodies[0].headers.authorization).toBe('Bearer rr-secret-1');
      expect(result.documents).toHaveLength(1);
      expect(result.documents[0]).toContain('Rotterdam');
      expect(result.distances[0]).toBeCloseTo(0.95);
    } finally {
      await settings({ RAG_RERANKING_ENGINE: '', RAG_EXTERNAL_RERANKER_URL: '', RAG_EXTERNAL_RERANKER_API_KEY: '', RELEVANCE_THRESHOLD: 0.4 });
      await reranker.close();
    }
  });

  it('never keeps more results after reranking than TOP_K, even from settings saved before that rule', async () => {
    const reranker = await startPeer((body) => ({ json: { results: (body.documents as string[]).map((_, index) => ({ index, relevance_score: 0.9 - index * 0.01 })) } }));
    const saved = await server.services.config.get(RetrievalSection);
    try {
      // As an older version could store it: 10 kept after reranking, out of 2.
      await server.services.config.set(RetrievalSection, { ...saved, RAG_RERANKING_ENGINE: 'external', RAG_EXTERNAL_RERANKER_URL: `${reranker.url}/rerank`, TOP_K: 2, TOP_K_RERANKER: 10, RELEVANCE_THRESHOLD: 0 });
      const result = await query(server, alice, [base], 'room office warehouse');
      expect(reranker.bodies[0].body).toMatchObject({ top_n: 2 });
      expect(result.documents).toHaveLength(2);
    } finally {
      await server.services.config.set(RetrievalSection, saved);
      await reranker.close();
    }
  });

  it('uses the external document loader and the chunking server when configured', async () => {
    const loader = await startPeer(() => ({ json: { page_content: 'Loaded externally: the hangar door code is 9981.' } }));
    const chunker = await startPeer((body) => ({ json: { chunks: [{ text: `${(body.text as string).slice(0, 20)}`, metadata: { by: 'server' } }, body.text] } }));
    try {
      await settings({ CONTENT_EXTRACTION_ENGINE: 'external', EXTERNAL_DOCUMENT_LOADER_URL: loader.url, ENABLE_CHUNKING_SERVER: true, CHUNKING_SERVER_URL: chunker.url });
      const id = await createBase(server, alice, 'External');
      const file = await uploadFile(server, alice, 'scan.pdf', Buffer.from('%PDF-1.4 not really parsed here'));
      expect((await addAndWait(server, alice, id, file)).status).toBe('completed');
      expect(loader.bodies[0]).toMatchObject({ method: 'PUT', headers: { 'content-type': 'application/pdf', 'x-filename': 'scan.pdf' } });
      expect(chunker.bodies[0].body).toMatchObject({ text: 'Loaded externally: the hangar door code is 9981.' });
      const result = await query(server, alice, [id], 'hangar door code', { relevance_threshold: 0 });
      expect(result.documents).toContain('Loaded externally: the hangar door code is 9981.');
      expect(result.documents).toHaveLength(2);
    } finally {
      await settings({ CONTENT_EXTRACTION_ENGINE: '', EXTERNAL_DOCUMENT_LOADER_URL: '', ENABLE_CHUNKING_SERVER: false, CHUNKING_SERVER_URL: '' });
      await loader.close();
      await chunker.close();
    }
  });

  it('marks files failed with the provider’s reason when the embedding provider fails, then re-embeds after a model change', async () => {
    const embed = (body: Record<string, unknown>) => server.as(admin.token).post('/api/v1/retrieval/embedding/update', body);
    // A wrong key: the provider refuses every batch.
    expect((await embed({ embedding_engine: 'compat', embedding_model: 'embed-small', compat_config: { url: fake.url, key: 'sk-wrong' } })).status).toBe(200);
    const id = await createBase(server, alice, 'Provider');
    const file = await uploadFile(server, alice, 'cats.txt', 'Cats sleep sixteen hours a day.');
    const failed = await addAndWait(server, alice, id, file);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/embedding provider failed/);
    expect(failed.error).toMatch(/401|key|auth/i);
    expect((await query(server, alice, [id], 'cats sleep', { relevance_threshold: 0 })).documents).toEqual([]);

    // The right key: re-embedding of everything stored runs in the background, and adding the file again works.
    const fixed = await embed({ compat_config: { key: 'sk-embed' } });
    expect(fixed.status).toBe(200);
    await server.services.retrieval.embeddings.idle();
    const status = (await server.as(admin.token).get('/api/v1/retrieval/embedding')).body.reembedding;
    expect(status).toMatchObject({ status: 'idle' });
    expect(status.done).toBe(status.total);
    expect(status.total).toBeGreaterThan(0);
    expect(fake.requestsTo('/embeddings').length).toBeGreaterThan(0);
    expect((await server.as(alice.token).post(`/api/knowledge/${id}/file/add`, { file_id: file })).status).toBe(200);
    const files = await waitForFiles(server, alice, id);
    expect(files[0]).toMatchObject({ status: 'completed' });
    const result = await query(server, alice, [id], 'cats sleep', { relevance_threshold: 0 });
    expect(result.documents[0]).toContain('sixteen');
    // Older bases were re-embedded with the new model and still answer.
    expect((await query(server, alice, [base], 'launch code Project Falcon')).documents[0]).toContain('AZURE-7421');
    await embed({ embedding_engine: '', embedding_model: '' });
    await server.services.retrieval.embeddings.idle();
  });
});
