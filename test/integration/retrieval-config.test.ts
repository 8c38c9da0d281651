import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';

describe('retrieval settings', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin);
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers the defaults on a fresh install: the interface\'s, but no more kept after reranking than TOP_K and a threshold the offline embedder reaches', async () => {
    const res = await server.as(admin.token).get('/api/v1/retrieval/config');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ENABLE_RAG_HYBRID_SEARCH: true, TOP_K: 5, TOP_K_RERANKER: 5, RELEVANCE_THRESHOLD: 0.4, HYBRID_BM25_WEIGHT: 0.5, CHUNKING_STRATEGY: 'A' });
    const embedding = await server.as(admin.token).get('/api/v1/retrieval/embedding');
    expect(embedding.body).toMatchObject({ embedding_engine: '', embedding_batch_size: 32, compat_config: { url: '', key: '' }, reembedding: { status: 'idle' } });
  });

  it('applies a partial update and keeps the rest, at /config/update and /config', async () => {
    const res = await server.as(admin.token).post('/api/v1/retrieval/config/update', { TOP_K: 8, CHUNKING_STRATEGY: 'H', HYBRID_BM25_WEIGHT: 0.3 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ TOP_K: 8, CHUNKING_STRATEGY: 'H', HYBRID_BM25_WEIGHT: 0.3, RELEVANCE_THRESHOLD: 0.4 });
    expect((await server.as(admin.token).post('/api/v1/retrieval/config', { TOP_K: 6 })).body.TOP_K).toBe(6);
    expect((await server.as(admin.token).get('/api/v1/retrieval/config')).body).toMatchObject({ TOP_K: 6, CHUNKING_STRATEGY: 'H' });
  });

  it.each([
    [{ RELEVANCE_THRESHOLD: 1.5 }, 'RELEVANCE_THRESHOLD'],
    [{ HYBRID_BM25_WEIGHT: -0.1 }, 'HYBRID_BM25_WEIGHT'],
    [{ TOP_K: 0 }, 'TOP_K'],
    [{ TOP_K: 2.5 }, 'TOP_K'],
    [{ CHUNK_SIZE: '100' }, 'CHUNK_SIZE'],
    [{ CHUNKING_STRATEGY: 'Z' }, 'CHUNKING_STRATEGY'],
    [{ TEXT_SPLITTER: 'words' }, 'TEXT_SPLITTER'],
    [{ CHUNK_SIZE: 100, CHUNK_OVERLAP: 100 }, 'CHUNK_OVERLAP'],
    [{ RAG_EXTERNAL_RERANKER_URL: 'ftp://x' }, 'RAG_EXTERNAL_RERANKER_URL'],
    [{ RAG_RERANKING_ENGINE: 'external', RAG_EXTERNAL_RERANKER_URL: '' }, 'RAG_EXTERNAL_RERANKER_URL'],
  ])('refuses %j with a 400 naming %s', async (body, field) => {
    const before = (await server.as(admin.token).get('/api/v1/retrieval/config')).body;
    const res = await server.as(admin.token).post('/api/v1/retrieval/config/update', body);
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain(field);
    expect((await server.as(admin.token).get('/api/v1/retrieval/config')).body).toEqual(before);
  });

  it('refuses with 422 a TOP_K_RERANKER above TOP_K, sent or left over, and takes both changed together', async () => {
    const before = (await server.as(admin.token).get('/api/v1/retrieval/config')).body;
    const above = await server.as(admin.token).post('/api/v1/retrieval/config/update', { TOP_K_RERANKER: before.TOP_K + 1 });
    expect(above.status).toBe(422);
    expect(above.body.detail).toBe(`Field 'TOP_K_RERANKER': the results kept after reranking (${before.TOP_K + 1}) must not exceed TOP_K (${before.TOP_K}); lower it or raise TOP_K in the same request`);
    const lowered = await server.as(admin.token).post('/api/v1/retrieval/config/update', { TOP_K: before.TOP_K_RERANKER - 1 });
    expect(lowered.status).toBe(422);
    expect(lowered.body.detail).toContain('TOP_K_RERANKER');
    expect((await server.as(admin.token).get('/api/v1/retrieval/config')).body).toEqual(before);
    const both = await server.as(admin.token).post('/api/v1/retrieval/config/update', { TOP_K: 3, TOP_K_RERANKER: 3 });
    expect(both.status).toBe(200);
    expect(both.body).toMatchObject({ TOP_K: 3, TOP_K_RERANKER: 3 });
    await server.as(admin.token).post('/api/v1/retrieval/config/update', { TOP_K: before.TOP_K, TOP_K_RERANKER: before.TOP_K_RERANKER });
  });

  it('is for admins only: 403 for users, 401 without credentials', async () => {
    expect((await server.as(alice.token).get('/api/v1/retrieval/config')).status).toBe(403);
    expect((await server.as(alice.token).post('/api/v1/retrieval/config/update', { TOP_K: 'bad' })).status).toBe(403);
    expect((await server.as(alice.token).get('/api/v1/retrieval/embedding')).status).toBe(403);
    expect((await server.as(alice.token).post('/api/v1/retrieval/embedding/update', {})).status).toBe(403);
    expect((await server.anon.get('/api/v1/retrieval/config')).status).toBe(401);
  });

  it('keeps embedding keys in the secret store, not in the database', async () => {
    const res = await server.as(admin.token).post('/api/v1/retrieval/embedding/update', {
      embedding_batch_size: 16,
      compat_config: { url: 'http://127.0.0.1:9/v1', key: 'sk-embed-secret' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ embedding_batch_size: 16, compat_config: { url: 'http://127.0.0.1:9/v1', key: 'sk-embed-secret' } });
    expect(await server.services.secrets.get('embedding:compat_config')).toBe('sk-embed-secret');
    const rows = await server.services.db('config').select('value');
    expect(JSON.stringify(rows)).not.toContain('sk-embed-secret');
  });

  it.each([
    [{ embedding_batch_size: 0 }, 'embedding_batch_size'],
    [{ embedding_engine: 'cloud' }, 'embedding_engine'],
    [{ embedding_engine: 'compat', embedding_model: '' }, 'embedding_model'],
    [{ compat_config: { url: 'not a url' } }, 'compat_config.url'],
  ])('refuses embedding settings %j with a 400 naming %s', async (body, field) => {
    const res = await server.as(admin.token).post('/api/v1/retrieval/embedding/update', body);
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain(field);
  });
});
