import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memorySecretStore } from '../../server/secrets';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { createTestDatabase, dropTestDatabase, startPostgresCluster, testClusterUrl, type PostgresCluster } from '../helpers/postgres';
import { startTestServer, type TestServer } from '../helpers/server';
import { LINKED_DOCS, longReport, readEvents, waitForGraph } from './graph-helpers';
import { createBase, query, uploadFile, waitForFiles } from './knowledge-helpers';

/** How soon a change made on one instance must show on the other. */
const WITHIN_MS = 1_000;
/** Short leases, so a dead instance's job is taken over within seconds. */
const LEASE_MS = 1_500;

/** Polls `check` until it returns true, failing after `ms`. */
async function within(check: () => Promise<boolean>, ms = WITHIN_MS): Promise<void> {
  const started = Date.now();
  for (;;) {
    if (await check()) return;
    if (Date.now() - started > ms) throw new Error(`not seen within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('background jobs and search indexes across two instances on one PostgreSQL database', () => {
  let cluster: PostgresCluster | undefined;
  let baseUrl: string;
  const dbName = `parley_jobs_${process.pid}`;
  let databaseUrl: string;
  let sharedDir: string;
  let secrets: ReturnType<typeof memorySecretStore>;
  let a: TestServer;
  let b: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let db: pg.Client;

  const env = () => ({ PARLEY_DATABASE_URL: databaseUrl, PARLEY_SHARED_DIR: sharedDir, PARLEY_JOB_LEASE_MS: String(LEASE_MS) });
  const sql = async <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => (await db.query<T>(text, values)).rows;
  const ingestJob = async (base: string, file: string) => (await sql<{ status: string; runs: number; owner: string | null }>("SELECT status, runs, owner FROM jobs WHERE kind = 'ingest' AND key = $1", [`${base}/${file}`]))[0];
  /** Chunks stored for a file, and how many distinct positions they hold (equal when it was stored once). */
  const chunkCounts = async (base: string, file: string) =>
    (await sql<{ n: number; seqs: number }>('SELECT count(*)::int AS n, count(DISTINCT seq)::int AS seqs FROM chunks WHERE collection_id = $1 AND file_id = $2', [base, file]))[0]!;
  const found = async (server: TestServer, base: string, text: string, needle: string) =>
    (await query(server, alice, [base], text, { relevance_threshold: 0 })).documents.some((d) => d.includes(needle));

  beforeAll(async () => {
    baseUrl = testClusterUrl() ?? (cluster = await startPostgresCluster()).baseUrl;
    databaseUrl = await createTestDatabase(baseUrl, dbName);
    sharedDir = mkdtempSync(path.join(os.tmpdir(), 'parley-shared-'));
    // Each instance has its own data dir; they share the database, the signing secret and the shared folder.
    secrets = memorySecretStore();
    a = await startTestServer({ secrets, envVars: env() });
    b = await startTestServer({ secrets, envVars: env() });
    admin = await signupAdmin(a);
    alice = await buildUser(a, admin, 'user', 'Alice');
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await a?.close();
    await b?.close();
    await dropTestDatabase(baseUrl, dbName).catch(() => undefined);
    cluster?.stop();
    if (sharedDir) rmSync(sharedDir, { recursive: true, force: true });
  });

  it('indexes a file added on A once, and B finds it within a second, then no longer once A removes it', async () => {
    const base = await createBase(a, alice, 'Shared');
    // B has the base's (empty) index and file list in memory before anything changes.
    expect(await found(b, base, 'hangar door code', '9981')).toBe(false);
    expect((await b.as(alice.token).get(`/api/v1/knowledge/${base}`)).body.files).toEqual([]);

    const file = await uploadFile(a, alice, 'hangar.txt', 'The hangar door code is 9981. Visitors sign in at the front desk.');
    // The upload lives in the shared folder, where B reads it too.
    expect(existsSync(path.join(sharedDir, 'uploads', file))).toBe(true);
    expect((await a.as(alice.token).post(`/api/knowledge/${base}/file/add`, { file_id: file })).status).toBe(200);
    expect((await waitForFiles(a, alice, base))[0]).toMatchObject({ id: file, status: 'completed' });
    await within(() => found(b, base, 'hangar door code', '9981'));
    await within(async () => ((await b.as(alice.token).get(`/api/v1/knowledge/${base}`)).body.files as Array<{ status: string }>)[0]?.status === 'completed');

    // One job, run once, one set of chunks (a second run would have replaced or doubled them).
    expect(await ingestJob(base, file)).toMatchObject({ status: 'done', runs: 1 });
    const counts = await chunkCounts(base, file);
    expect(counts.n).toBeGreaterThan(0);
    expect(counts.n).toBe(counts.seqs);

    expect((await a.as(alice.token).post(`/api/knowledge/${base}/file/remove`, { file_id: file })).status).toBe(200);
    await within(async () => !(await found(b, base, 'hangar door code', '9981')));
    await within(async () => ((await b.as(alice.token).get(`/api/v1/knowledge/${base}`)).body.files as unknown[]).length === 0);
  }, 60_000);

  it('B follows a language change made on A', async () => {
    const base = await createBase(a, alice, 'Languages');
    expect((await b.as(alice.token).get(`/api/v1/knowledge/${base}`)).status).toBe(200);
    const file = await uploadFile(a, alice, 'chats.txt', 'Les chats dorment seize heures par jour dans la maison.');
    expect((await a.as(alice.token).post(`/api/knowledge/${base}/file/add`, { file_id: file })).status).toBe(200);
    await waitForFiles(a, alice, base);
    await within(() => found(b, base, 'chats dorment', 'seize'));
    expect((await b.services.retrieval.indexes.get(base)).language).toBe('french');
    const current = (await a.as(alice.token).get(`/api/v1/knowledge/${base}`)).body as { name: string; description: string };
    const changed = await a.as(alice.token).post(`/api/v1/knowledge/${base}/update`, { name: current.name, description: current.description, language: 'english' });
    expect(changed.status, changed.text).toBe(200);
    // B's index in memory was dropped: the next one is analysed in the new language.
    await within(async () => (await b.services.retrieval.indexes.get(base)).language === 'english');
    expect(await found(b, base, 'chats dorment', 'seize')).toBe(true);
  }, 60_000);

  it('hands the file of an instance that died mid-batch to another one, which indexes it once', async () => {
    const c = await startTestServer({ secrets, envVars: env() });
    try {
      const base = await createBase(a, alice, 'Takeover');
      // Large enough that C is still working on it when it dies.
      const text = Array.from({ length: 40_000 }, (_, i) => `Line ${i} of the inventory lists crate ${i * 7} in aisle ${i % 40}.`).join('\n');
      const file = await uploadFile(a, alice, 'inventory.txt', `${text}\nThe spare key hangs behind the blue door.`);
      expect((await c.as(alice.token).post(`/api/knowledge/${base}/file/add`, { file_id: file })).status).toBe(200);
      await within(async () => (await ingestJob(base, file))?.owner === c.services.jobs.owner && (await sql("SELECT 1 FROM collection_files WHERE file_id = $1 AND status = 'processing'", [file])).length === 1, 5_000);
      // C dies: its runner stops without completing anything and its leases are no longer renewed.
      c.services.retrieval.ingestion.stop();
      c.services.jobs.abandon();
      const files = await waitForFiles(b, alice, base, 60_000);
      expect(files[0]).toMatchObject({ id: file, status: 'completed' });
      // The job completes right after the file's chunks are stored.
      await within(async () => (await ingestJob(base, file))?.status === 'done');
      expect(await ingestJob(base, file)).toMatchObject({ status: 'done', runs: 2 });
      const counts = await chunkCounts(base, file);
      expect(counts.n).toBe(counts.seqs);
      expect(await found(b, base, 'spare key blue door', 'blue door')).toBe(true);
      expect(await found(a, base, 'spare key blue door', 'blue door')).toBe(true);
    } finally {
      await c.close();
    }
  }, 90_000);

  it('builds a knowledge graph once, whichever instance runs it, and searches on both use it', async () => {
    const base = await createBase(a, alice, 'Graph');
    const ids: Record<string, string> = {};
    for (const [name, text] of Object.entries(LINKED_DOCS)) {
      ids[name] = await uploadFile(a, alice, name, text);
      expect((await a.as(alice.token).post(`/api/knowledge/${base}/file/add`, { file_id: ids[name] })).status).toBe(200);
    }
    await waitForFiles(a, alice, base);
    const question = 'principal investigator of Project Falcon';
    const filesFound = async (server: TestServer) => (await query(server, alice, [base], question, { k: 2, relevance_threshold: 0 })).metadatas.map((m) => m.file_id as string).sort();
    // Without the graph (A read that before the build) plain search finds one of the two linked documents.
    expect(await filesFound(a)).not.toContain(ids['holm.txt']);

    expect((await b.as(alice.token).post(`/api/knowledge/${base}/graph/toggle`, { enabled: true })).status).toBe(200);
    expect((await waitForGraph(a, alice, base)).status).toBe('ready');
    const [job] = await sql<{ status: string; runs: number }>("SELECT status, runs FROM jobs WHERE kind = 'graph' AND key = $1", [base]);
    expect(job).toMatchObject({ status: 'done', runs: 1 });
    const [{ n }] = (await sql<{ n: number }>('SELECT count(*)::int AS n FROM graph_chunks WHERE knowledge_id = $1', [base])) as [{ n: number }];
    const [{ total }] = (await sql<{ total: number }>('SELECT count(*)::int AS total FROM chunks WHERE collection_id = $1', [base])) as [{ total: number }];
    expect(n).toBe(total);
    // Both instances' searches now bring in the linked document through the graph.
    const both = [ids['falcon.txt'], ids['holm.txt']].sort();
    await within(async () => JSON.stringify(await filesFound(a)) === JSON.stringify(both));
    expect(await filesFound(b)).toEqual(both);
  }, 60_000);

  it('streams the progress of a graph build to the instance that is not running it', async () => {
    const base = await createBase(a, alice, 'Reports');
    for (let i = 0; i < 3; i += 1) {
      const file = await uploadFile(a, alice, `report-${i}.txt`, longReport(i + 1, 100));
      expect((await a.as(alice.token).post(`/api/knowledge/${base}/file/add`, { file_id: file })).status).toBe(200);
    }
    await waitForFiles(a, alice, base, 60_000);
    expect((await a.as(alice.token).post(`/api/knowledge/${base}/graph/toggle`, { enabled: true })).status).toBe(200);
    let idle: TestServer | undefined;
    await within(async () => {
      if (a.services.graph.builder.isRunning(base)) idle = b;
      else if (b.services.graph.builder.isRunning(base)) idle = a;
      return idle !== undefined;
    }, 10_000);
    const res = await fetch(`${idle!.url}/api/v1/knowledge/${base}/graph/status?stream=true&token=${encodeURIComponent(alice.token)}`);
    const events = await readEvents(res);
    expect(events.length).toBeGreaterThanOrEqual(2);
    expect(events.at(-1)).toMatchObject({ status: 'ready', progress: 100 });
  }, 90_000);

  it('re-embeds every chunk once after a model change on A, and both instances search with the new model', async () => {
    const fake: FakeOpenAI = await startFakeOpenAI({ key: 'sk-embed', models: ['embed-small'] });
    try {
      const base = await createBase(a, alice, 'Embeddings');
      const file = await uploadFile(a, alice, 'falcon.txt', 'The launch code for Project Falcon is AZURE-7421.');
      expect((await a.as(alice.token).post(`/api/knowledge/${base}/file/add`, { file_id: file })).status).toBe(200);
      await waitForFiles(a, alice, base);
      expect(await found(b, base, 'Project Falcon launch code', 'AZURE-7421')).toBe(true);
      const [{ stored }] = (await sql<{ stored: number }>('SELECT count(*)::int AS stored FROM chunks')) as [{ stored: number }];

      const update = await a.as(admin.token).post('/api/v1/retrieval/embedding/update', { embedding_engine: 'compat', embedding_model: 'embed-small', compat_config: { url: fake.url, key: 'sk-embed' } });
      expect(update.status, update.text).toBe(200);
      await a.services.retrieval.embeddings.idle();
      await b.services.retrieval.embeddings.idle();
      const [job] = await sql<{ status: string; runs: number }>("SELECT status, runs FROM jobs WHERE kind = 'reembed'");
      expect(job).toMatchObject({ status: 'done', runs: 1 });
      const embedded = fake.requestsTo('/embeddings').flatMap((r) => (r.body as { input: string[] }).input);
      expect(embedded).toHaveLength(stored);
      expect(await sql('SELECT DISTINCT model FROM chunks')).toEqual([{ model: 'compat:embed-small' }]);
      // Queries are embedded with the new model on both (B learnt of the new settings from the database).
      const before = fake.requestsTo('/embeddings').length;
      expect(await found(b, base, 'Project Falcon launch code', 'AZURE-7421')).toBe(true);
      expect(await found(a, base, 'Project Falcon launch code', 'AZURE-7421')).toBe(true);
      expect(fake.requestsTo('/embeddings').length).toBe(before + 2);
    } finally {
      await a.as(admin.token).post('/api/v1/retrieval/embedding/update', { embedding_engine: '', embedding_model: '' });
      await a.services.retrieval.embeddings.idle();
      await b.services.retrieval.embeddings.idle();
      await fake.close();
    }
  }, 60_000);

  it('releases a caller waiting on a file another instance indexed as soon as its job ends, without waiting for a poll', async () => {
    const c = await startTestServer({ secrets, envVars: env() });
    try {
      // C takes no job and no longer polls: only the end of the job, announced by the database, can reach it.
      await c.services.jobs.close();
      const base = await createBase(c, alice, 'Waiting');
      const file = await uploadFile(c, alice, 'door.txt', 'The side door opens with the green badge.');
      expect((await c.as(alice.token).post(`/api/knowledge/${base}/file/add`, { file_id: file })).status).toBe(200);
      let released = false;
      void c.services.retrieval.ingestion.settled(base, file).then(() => (released = true));
      await within(async () => (await ingestJob(base, file))?.status === 'done', 30_000);
      await within(async () => released, WITHIN_MS);
      expect(await found(c, base, 'side door badge', 'green badge')).toBe(true);
    } finally {
      await c.close();
    }
  }, 60_000);

  it('shows the progress of a language change’s re-index on the instance that is not running it', async () => {
    const base = await createBase(a, alice, 'Reindex');
    const text = Array.from({ length: 20_000 }, (_, i) => `Line ${i} of the ledger records parcel ${i * 3} on shelf ${i % 50}.`).join('\n');
    const file = await uploadFile(a, alice, 'ledger.txt', text);
    expect((await a.as(alice.token).post(`/api/knowledge/${base}/file/add`, { file_id: file })).status).toBe(200);
    await waitForFiles(a, alice, base, 60_000);
    const reindexing = async (server: TestServer) => (await server.as(alice.token).get(`/api/v1/knowledge/${base}`)).body.reindexing as number | null;
    expect(await reindexing(b)).toBeNull();
    const changed = await a.as(alice.token).post(`/api/v1/knowledge/${base}/update`, { name: 'Reindex', description: '', language: 'german' });
    expect(changed.status, changed.text).toBe(200);
    // A rebuilds its index in the background; B, asked meanwhile, reports how far A is.
    const seen = await reindexing(b);
    expect(seen).toEqual(expect.any(Number));
    expect(seen).toBeGreaterThanOrEqual(0);
    expect(seen).toBeLessThanOrEqual(1);
    await within(async () => (await reindexing(a)) === null && (await reindexing(b)) === null, 30_000);
  }, 90_000);

  it('reports the same re-embedding progress on both instances while one of them runs it', async () => {
    const fake: FakeOpenAI = await startFakeOpenAI({ key: 'sk-embed', models: ['embed-slow'] });
    // A slow provider: the re-embedding of everything stored takes seconds.
    fake.embeddingsDelay = 100;
    const status = async (server: TestServer) => (await server.as(admin.token).get('/api/v1/retrieval/embedding')).body.reembedding as { status: string; done: number; total: number };
    try {
      const update = await a.as(admin.token).post('/api/v1/retrieval/embedding/update', {
        embedding_engine: 'compat',
        embedding_model: 'embed-slow',
        embedding_batch_size: 64,
        compat_config: { url: fake.url, key: 'sk-embed' },
      });
      expect(update.status, update.text).toBe(200);
      await within(async () => {
        const [onA, onB] = await Promise.all([status(a), status(b)]);
        return onA.status === 'running' && onB.status === 'running' && onA.done > 0 && onB.done > 0 && onA.total === onB.total;
      }, 30_000);
      await a.services.retrieval.embeddings.idle();
      await b.services.retrieval.embeddings.idle();
      const [onA, onB] = await Promise.all([status(a), status(b)]);
      expect(onA).toEqual(onB);
      expect(onA).toMatchObject({ status: 'idle' });
      expect(onA.done).toBe(onA.total);
      expect(onA.total).toBeGreaterThan(256);
    } finally {
      fake.embeddingsDelay = 0;
      await a.as(admin.token).post('/api/v1/retrieval/embedding/update', { embedding_engine: '', embedding_model: '', embedding_batch_size: 32 });
      await a.services.retrieval.embeddings.idle();
      await b.services.retrieval.embeddings.idle();
      await fake.close();
    }
  }, 120_000);
});
