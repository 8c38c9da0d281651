import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { tinyGguf } from '../fixtures/tiny-gguf';
import { addAndWait, createBase, uploadFile } from './knowledge-helpers';

/**
 * The built-in reranker plugs into hybrid search like the external one: with the reranking
 * engine `builtin`, a knowledge search's candidates are scored by the library's reranker model
 * (a tiny generated cross-encoder here) in the runtime process, and the answer is its order and
 * its scores, cut to TOP_K_RERANKER. No network is involved.
 */
let server: TestServer;
let admin: TestUser;
let reranker: string;
let base: string;
const DOCUMENTS = [
  'The lighthouse key hangs in the harbourmaster office, second hook.',
  'Cider apples are pressed in October behind the orchard.',
  'The ferry leaves the north quay at seven in the morning.',
  'Telescope bookings go through the astronomy club.',
];
const QUERY = 'where is the lighthouse key kept';

beforeAll(async () => {
  server = await startTestServer({ envVars: { PARLEY_OFFLINE: '1' } });
  admin = await signupAdmin(server);
  const form = new FormData();
  form.append('file', new Blob([tinyGguf({ reranker: true, seed: 5 })]), 'tiny-reranker.gguf');
  const imported = await server.as(admin.token).raw('POST', '/builtin/models/import', form);
  expect(imported.status, imported.text).toBe(200);
  reranker = imported.body.id;
  base = await createBase(server, admin, 'Harbour');
  for (const [i, text] of DOCUMENTS.entries()) expect((await addAndWait(server, admin, base, await uploadFile(server, admin, `doc-${i}.txt`, text))).status).toBe('completed');
}, 120_000);

afterAll(async () => {
  await server?.close();
});

const search = () => server.as(admin.token).post('/api/v1/retrieval/query/collection', { collection_names: [base], query: QUERY, k: 4, relevance_threshold: 0 });

describe('the built-in reranking engine', () => {
  it('needs a reranker model', async () => {
    const res = await server.as(admin.token).post('/api/v1/retrieval/config/update', { RAG_RERANKING_ENGINE: 'builtin', RAG_RERANKING_MODEL: '' });
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain('RAG_RERANKING_MODEL');
  });

  it("orders a knowledge search by the local model's scores, top TOP_K_RERANKER, offline", async () => {
    const plain = await search();
    expect(plain.body.documents[0]).toHaveLength(4);
    const set = await server.as(admin.token).post('/api/v1/retrieval/config/update', { RAG_RERANKING_ENGINE: 'builtin', RAG_RERANKING_MODEL: reranker, TOP_K_RERANKER: 3 });
    expect(set.status, set.text).toBe(200);
    const reranked = await search();
    expect(reranked.status, reranked.text).toBe(200);
    // What the reranker itself says of the same candidates.
    const expected = await server.services.builtin.reranker.rerank({ model: reranker, query: QUERY, documents: plain.body.documents[0], topN: 3 });
    expect(reranked.body.documents[0]).toEqual(expected.map((r) => plain.body.documents[0][r.index]));
    expect(reranked.body.distances[0]).toEqual(expected.map((r) => r.relevance_score));
    // The model's order is its own, not the hybrid one (a tiny random model disagrees with BM25 here).
    expect(reranked.body.documents[0]).not.toEqual(plain.body.documents[0].slice(0, 3));
  }, 60_000);

  it('keeps the hybrid order when the model is gone, as with an external reranker that fails', async () => {
    expect((await server.as(admin.token).delete(`/builtin/models/${reranker}`)).body).toBe(true);
    const res = await search();
    expect(res.status).toBe(200);
    expect(res.body.documents[0]).toHaveLength(3);
  }, 60_000);
});
