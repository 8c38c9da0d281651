import { monitorEventLoopDelay } from 'node:perf_hooks';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EMBEDDING_INPUT_CHARS, MAX_EMBEDDING_REQUEST_CHARS } from '../../server/contracts/openai';
import { OFFLINE_DIMS, OFFLINE_MODEL } from '../../server/retrieval/embedding/offline-embedder';
import { signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { createBase, uploadFile, waitForFiles } from './knowledge-helpers';

/** Words that vary, so the offline embedder has real work (analysis, hashing) per character. */
function prose(chars: number, seed: number): string {
  const words = ['harbour', 'ferry', 'lighthouse', 'keeper', 'crates', 'dawn', 'quarterly', 'report', 'engine', 'north'];
  let text = '';
  for (let i = 0; text.length < chars; i += 1) text += `${words[(i * 7 + seed) % words.length]}${i % 97} `;
  return text.slice(0, chars);
}

describe('text analysed on the service thread (/v1/embeddings, searches): size limits, and the event loop stays free', () => {
  let server: TestServer;
  let admin: TestUser;
  let client: OpenAI;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    client = new OpenAI({ apiKey: admin.token, baseURL: `${server.url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses the 9.5 MB request that blocked the service for 3.7 s, with 400 in OpenAI’s error shape naming the field', async () => {
    const input = Array.from({ length: 300 }, (_, i) => prose(32_000, i));
    const res = await fetch(`${server.url}/v1/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}` },
      body: JSON.stringify({ model: 'text-embedding-3-small', input }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { message: string; type: string; param: string | null } };
    expect(body.error).toMatchObject({ type: 'invalid_request_error', param: 'input' });
    expect(body.error.message).toMatch(/at most 1,200,000 characters in all/);
    const long = await client.embeddings.create({ model: 'm', input: 'x'.repeat(MAX_EMBEDDING_INPUT_CHARS + 1) }).catch((e: unknown) => e);
    expect(long).toBeInstanceOf(OpenAI.BadRequestError);
    expect((long as InstanceType<typeof OpenAI.BadRequestError>).message).toMatch(/at most 32,768 characters/);
  });

  it('embeds the largest request it accepts while the event loop keeps answering, and records the engine’s model', async () => {
    const input = Array.from({ length: Math.floor(MAX_EMBEDDING_REQUEST_CHARS / MAX_EMBEDDING_INPUT_CHARS) }, (_, i) => prose(MAX_EMBEDDING_INPUT_CHARS, i));
    const loop = monitorEventLoopDelay({ resolution: 2 });
    const health: number[] = [];
    let done = false;
    loop.enable();
    const probe = (async () => {
      while (!done) {
        const at = performance.now();
        await (await fetch(`${server.url}/health`)).arrayBuffer();
        health.push(performance.now() - at);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const answer = await client.embeddings.create({ model: 'made-up-model-name', input, encoding_format: 'float' });
    done = true;
    await probe;
    loop.disable();
    expect(answer.data).toHaveLength(input.length);
    expect(answer.data[0]!.embedding).toHaveLength(OFFLINE_DIMS);
    // The work went in slices: /health was answered meanwhile, and no slice held the loop long.
    expect(health.length).toBeGreaterThan(3);
    expect(loop.max / 1e6, `longest event-loop delay while embedding ${input.length} texts`).toBeLessThan(100);
    const usage = await server.as(admin.token).get('/api/v1/usage');
    expect(usage.body.rows.map((r: { model: string }) => r.model)).toEqual([OFFLINE_MODEL]);
  });

  it('searches a knowledge base with a 5 MB question (a pasted document) without holding the event loop', async () => {
    const base = await createBase(server, admin, 'Harbour');
    const file = await uploadFile(server, admin, 'harbour.txt', `${prose(20_000, 3)}\n\nThe lighthouse keeper hides the spare key under the third stone.`);
    expect((await server.as(admin.token).post(`/api/knowledge/${base}/file/add`, { file_id: file })).status).toBe(200);
    expect((await waitForFiles(server, admin, base))[0]?.status).toBe('completed');
    const question = `Where is the spare key hidden? ${prose(5 * 1024 * 1024, 1)}`;
    const loop = monitorEventLoopDelay({ resolution: 2 });
    loop.enable();
    const hits = await server.services.retrieval.service.search([base], question, { threshold: 0 });
    loop.disable();
    expect(hits.length).toBeGreaterThan(0);
    expect(loop.max / 1e6, 'longest event-loop delay during the search').toBeLessThan(100);
  });
});
