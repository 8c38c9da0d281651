import { afterEach, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { countConnections, type ConnectionCounter } from '../helpers/connection-counter';
import { startTestServer, type TestServer } from '../helpers/server';
import { createBase, uploadFile, waitForFiles } from './knowledge-helpers';

/**
 * The offline switch: with it on, no path of Parley reaches another machine. Every outbound
 * feature is pointed at addresses outside this computer and used; a counting fake of the network
 * (test/helpers/connection-counter.ts) records each TCP connection attempt and DNS lookup and
 * refuses it at once. The same scenario on a service with the switch off is the control: each
 * step there does try to connect, so a step that made no attempt offline was really kept in.
 */
const EXTERNAL = {
  compat: 'http://203.0.113.10/v1',
  local: 'http://198.51.100.7:11434',
  ollamaProbe: 'http://198.51.100.8:11434',
  loader: 'https://loader.example.com/extract',
  chunker: 'http://203.0.113.11:8000/chunk',
  embeddings: 'https://embeddings.example.com/v1',
  reranker: 'https://rerank.example.com/v1/rerank',
  openapi: 'https://tools.example.com',
  mcp: 'https://mcp.example.com/mcp',
  mcpOAuth: 'https://secure-mcp.example.com/mcp',
  model: 'https://huggingface.co/example/tiny/resolve/main/tiny.Q4_K_M.gguf',
  searxng: 'https://searx.example.com/search',
  page: 'https://news.example.com/article',
  images: 'https://images.example.com/v1',
  comfyui: 'https://comfy.example.com',
  speech: 'https://speech.example.com/v1',
};

let server: TestServer | undefined;
let counter: ConnectionCounter | undefined;
afterEach(async () => {
  counter?.stop();
  counter = undefined;
  await server?.close();
  server = undefined;
});

interface Step {
  name: string;
  /**
   * Made by the ingestion worker thread, whose connections the counter does not see: run only
   * offline (a control run would really go out), where the file's error shows it was refused
   * before it reached the worker.
   */
  worker?: true;
  run(ctx: { server: TestServer; admin: TestUser; offline: boolean }): Promise<void>;
}

const retrieval = (s: TestServer, admin: TestUser, body: Record<string, unknown>) => s.as(admin.token).post('/api/v1/retrieval/config/update', body);

/** Adds a new document to a new base and waits until it is indexed or failed; answers its status and error. */
async function ingest(s: TestServer, admin: TestUser, name: string): Promise<{ status: string; error?: string }> {
  const base = await createBase(s, admin, name);
  const file = await uploadFile(s, admin, `${name}.txt`, `Notes about ${name}: the harbour ferry leaves at seven.`);
  expect((await s.as(admin.token).post(`/api/knowledge/${base}/file/add`, { file_id: file })).status).toBe(200);
  const [entry] = await waitForFiles(s, admin, base, 30_000);
  return entry!;
}

const STEPS: Step[] = [
  {
    name: 'provider connections and their model lists',
    async run({ server: s, admin }) {
      expect((await s.as(admin.token).post('/compat/config/update', { COMPAT_API_BASE_URLS: [EXTERNAL.compat], COMPAT_API_KEYS: ['sk-outside'] })).status).toBe(200);
      expect((await s.as(admin.token).post('/local/config/update', { LOCAL_BASE_URLS: [EXTERNAL.local] })).status).toBe(200);
      expect((await s.as(admin.token).get('/api/models')).status).toBe(200);
    },
  },
  {
    name: 'verifying provider connections',
    async run({ server: s, admin, offline }) {
      const compat = await s.as(admin.token).post('/compat/verify', { url: EXTERNAL.compat, key: 'sk-outside' });
      const local = await s.as(admin.token).post('/local/verify', { url: EXTERNAL.local });
      if (offline) expect(JSON.stringify([compat.body, local.body])).toContain('Parley is offline');
    },
  },
  {
    name: 'a chat with a provider model',
    async run({ server: s, admin }) {
      await s.as(admin.token).post('/api/chat/completions', { model: 'gpt-outside', messages: [{ role: 'user', content: 'hello' }], stream: true });
    },
  },
  {
    name: 'the first-run setup looking for Ollama',
    async run({ server: s, admin }) {
      expect((await s.as(admin.token).get('/api/v1/desktop/setup')).body.ollama.found).toBe(false);
    },
  },
  {
    name: 'an external document loader',
    worker: true,
    async run({ server: s, admin }) {
      expect((await retrieval(s, admin, { CONTENT_EXTRACTION_ENGINE: 'external', EXTERNAL_DOCUMENT_LOADER_URL: EXTERNAL.loader })).status).toBe(200);
      const file = await ingest(s, admin, 'loader');
      expect(file.status).toBe('failed');
      expect(file.error).toContain('Parley is offline (the Offline switch in Admin settings → Network): it makes no connection to loader.example.com');
      expect((await retrieval(s, admin, { CONTENT_EXTRACTION_ENGINE: '' })).status).toBe(200);
    },
  },
  {
    name: 'a chunking server',
    worker: true,
    async run({ server: s, admin }) {
      expect((await retrieval(s, admin, { ENABLE_CHUNKING_SERVER: true, CHUNKING_SERVER_URL: EXTERNAL.chunker })).status).toBe(200);
      const file = await ingest(s, admin, 'chunker');
      expect(file.status).toBe('failed');
      expect(file.error).toContain('it makes no connection to 203.0.113.11 (chunking-server)');
      expect((await retrieval(s, admin, { ENABLE_CHUNKING_SERVER: false })).status).toBe(200);
    },
  },
  {
    name: 'an embedding provider',
    async run({ server: s, admin, offline }) {
      const set = await s.as(admin.token).post('/api/v1/retrieval/embedding/update', { embedding_engine: 'compat', embedding_model: 'text-embedding-outside', compat_config: { url: EXTERNAL.embeddings, key: 'sk-outside' } });
      expect(set.status, set.text).toBe(200);
      const file = await ingest(s, admin, 'embeddings');
      expect(file.status).toBe('failed');
      if (offline) expect(file.error).toContain('Parley is offline');
      expect((await s.as(admin.token).post('/api/v1/retrieval/embedding/update', { embedding_engine: '' })).status).toBe(200);
    },
  },
  {
    name: 'an external reranker',
    async run({ server: s, admin }) {
      expect((await retrieval(s, admin, { RAG_RERANKING_ENGINE: 'external', RAG_EXTERNAL_RERANKER_URL: EXTERNAL.reranker, RAG_RERANKING_MODEL: 'rerank-outside' })).status).toBe(200);
      const base = await createBase(s, admin, 'reranked');
      const file = await uploadFile(s, admin, 'ferry.txt', 'The harbour ferry leaves at seven from the north quay.');
      await s.as(admin.token).post(`/api/knowledge/${base}/file/add`, { file_id: file });
      expect((await waitForFiles(s, admin, base))[0]!.status).toBe('completed');
      // The search still answers (in hybrid order) when the reranker cannot be asked.
      const hits = await s.as(admin.token).post('/api/v1/retrieval/query/collection', { collection_names: [base], query: 'ferry', relevance_threshold: 0 });
      expect(hits.body.documents[0][0]).toContain('north quay');
    },
  },
  {
    name: 'tool servers (OpenAPI and MCP)',
    async run({ server: s, admin, offline }) {
      const openapi = await s.as(admin.token).post('/api/v1/configs/tool_servers/verify', { url: EXTERNAL.openapi, type: 'openapi', path: 'openapi.json' });
      const mcp = await s.as(admin.token).post('/api/v1/configs/tool_servers/verify', { url: EXTERNAL.mcp, type: 'mcp' });
      if (offline) expect(`${openapi.text} ${mcp.text}`).toMatch(/offline/i);
    },
  },
  {
    name: 'signing in to an MCP server with OAuth',
    async run({ server: s, admin }) {
      const connection = { url: EXTERNAL.mcpOAuth, path: null, spec_type: 'url', spec: null, type: 'mcp', auth_type: 'oauth_2.1', key: null, enable: true, config: { enable: true }, info: { id: 'outside', name: 'Outside', description: '' } };
      expect((await s.as(admin.token).post('/api/v1/configs/tool_servers', { TOOL_SERVER_CONNECTIONS: [connection] })).status).toBe(200);
      await s.as(admin.token).post('/api/v1/tools/oauth/outside/authorize');
    },
  },
  {
    name: 'searching the web',
    async run({ server: s, admin, offline }) {
      expect((await retrieval(s, admin, { web: { ENABLE_WEB_SEARCH: true, WEB_SEARCH_ENGINE: 'searxng', SEARXNG_QUERY_URL: EXTERNAL.searxng } })).status).toBe(200);
      const res = await s.as(admin.token).post('/api/v1/retrieval/process/web/search', { queries: ['harbour ferry times'] });
      if (offline) {
        expect(res.status).toBe(403);
        expect(res.body.detail).toContain('searx.example.com (web-search)');
      }
    },
  },
  {
    name: 'reading a web page',
    async run({ server: s, admin, offline }) {
      const res = await s.as(admin.token).post('/api/v1/retrieval/process/web', { url: EXTERNAL.page });
      if (offline) {
        expect(res.status).toBe(403);
        expect(res.body.detail).toContain('news.example.com (web-fetch)');
      }
    },
  },
  {
    name: 'making an image (OpenAI-compatible)',
    async run({ server: s, admin, offline }) {
      const config = (await s.as(admin.token).get('/api/v1/images/config')).body as Record<string, unknown>;
      const saved = await s.as(admin.token).post('/api/v1/images/config/update', { ...config, ENABLE_IMAGE_GENERATION: true, IMAGE_GENERATION_ENGINE: 'openai', IMAGES_OPENAI_API_BASE_URL: EXTERNAL.images, IMAGES_OPENAI_API_KEY: 'sk-outside' });
      expect(saved.status, saved.text).toBe(200);
      const res = await s.as(admin.token).post('/api/v1/images/generations', { prompt: 'a lighthouse' });
      if (offline) {
        expect(res.status).toBe(403);
        expect(res.body.detail).toContain('images.example.com (image)');
      }
    },
  },
  {
    name: 'making an image (ComfyUI)',
    async run({ server: s, admin, offline }) {
      const config = (await s.as(admin.token).get('/api/v1/images/config')).body as Record<string, unknown>;
      expect((await s.as(admin.token).post('/api/v1/images/config/update', { ...config, ENABLE_IMAGE_GENERATION: true, IMAGE_GENERATION_ENGINE: 'comfyui', COMFYUI_BASE_URL: EXTERNAL.comfyui })).status).toBe(200);
      const res = await s.as(admin.token).post('/api/v1/images/generations', { prompt: 'a lighthouse' });
      if (offline) {
        expect(res.status).toBe(403);
        expect(res.body.detail).toContain('comfy.example.com (image)');
      }
    },
  },
  {
    name: 'reading an answer aloud with a speech provider',
    async run({ server: s, admin, offline }) {
      expect((await s.as(admin.token).post('/api/v1/audio/config/update', { tts: { ENGINE: 'openai', OPENAI_API_BASE_URL: EXTERNAL.speech, OPENAI_API_KEY: 'sk-speech', VOICE: 'nova', MODEL: 'tts-1' } })).status).toBe(200);
      const res = await s.as(admin.token).post('/api/v1/audio/speech', { input: 'The ferry leaves at seven.' });
      if (offline) {
        expect(res.status).toBe(403);
        expect(res.body.detail).toContain('speech.example.com (audio)');
      }
    },
  },
  {
    name: 'downloading a model',
    async run({ server: s, admin, offline }) {
      const res = await s.as(admin.token).post('/builtin/models/download', { url: EXTERNAL.model });
      if (offline) {
        expect(res.status).toBe(403);
        expect(res.body.detail).toContain('Parley is offline (the Offline switch in Admin settings → Network): it makes no connection to huggingface.co (model-download)');
        expect((await s.as(admin.token).get('/builtin/models')).body).toEqual([]);
        return;
      }
      expect(res.status).toBe(200);
      // Give the download its first attempt.
      for (let i = 0; i < 100 && (await s.as(admin.token).get(`/builtin/models/${res.body.id}`)).body.status === 'downloading'; i += 1) await new Promise((r) => setTimeout(r, 20));
      await s.as(admin.token).post(`/builtin/models/${res.body.id}/cancel`);
    },
  },
];

async function runScenario(offline: boolean): Promise<Record<string, number>> {
  server = await startTestServer({ envVars: { PARLEY_OLLAMA_PROBE_URL: EXTERNAL.ollamaProbe } });
  const admin = await signupAdmin(server);
  await buildUser(server, admin, 'user');
  if (offline) {
    const on = await server.as(admin.token).post('/api/v1/configs/offline', { enabled: true });
    expect(on.body).toEqual({ offline: true, enabled: true, forced_by_env: false, allowed_networks: [] });
  }
  counter = countConnections();
  const attempts: Record<string, number> = {};
  for (const step of STEPS) {
    if (step.worker && !offline) continue;
    const before = counter.total;
    await step.run({ server, admin, offline });
    // Background work a step started (model list refreshes, downloads) gets a moment to try.
    await new Promise((resolve) => setTimeout(resolve, 100));
    attempts[step.name] = counter.total - before;
  }
  return attempts;
}

describe('the offline switch', () => {
  it('control: with the switch off, every step below does try to reach another machine', async () => {
    const attempts = await runScenario(false);
    for (const step of STEPS.filter((s) => !s.worker)) expect(attempts[step.name], `${step.name}: no connection attempt, so the offline run would prove nothing`).toBeGreaterThan(0);
  }, 120_000);

  it('on: the same steps make zero connection attempts and zero DNS lookups', async () => {
    const attempts = await runScenario(true);
    expect(attempts).toEqual(Object.fromEntries(STEPS.map((s) => [s.name, 0])));
    expect(Object.keys(attempts)).toHaveLength(STEPS.length);
    expect(counter!.connects).toEqual([]);
    expect(counter!.lookups).toEqual([]);
  }, 120_000);
});

describe('the offline setting', () => {
  it('is for admins: 401 without a session, 403 for a user, 400 for a bad body', async () => {
    server = await startTestServer();
    const admin = await signupAdmin(server);
    const user = await buildUser(server, admin, 'user');
    expect((await server.anon.get('/api/v1/configs/offline')).status).toBe(401);
    expect((await server.as(user.token).get('/api/v1/configs/offline')).status).toBe(403);
    expect((await server.as(user.token).post('/api/v1/configs/offline', { enabled: true })).status).toBe(403);
    expect((await server.as(admin.token).post('/api/v1/configs/offline', { enabled: 'yes' })).status).toBe(400);
    expect((await server.as(admin.token).post('/api/v1/configs/offline', {})).status).toBe(400);
    expect((await server.as(admin.token).get('/api/v1/configs/offline')).body).toEqual({ offline: false, enabled: false, forced_by_env: false, allowed_networks: [] });
    expect((await server.as(admin.token).post('/api/v1/configs/offline', { enabled: true })).body.offline).toBe(true);
    expect((await server.as(admin.token).post('/api/v1/configs/offline', { enabled: false })).body.offline).toBe(false);
  });

  it('PARLEY_OFFLINE=1 keeps it offline whatever the switch says, and names itself in refusals', async () => {
    server = await startTestServer({ envVars: { PARLEY_OFFLINE: '1', PARLEY_OFFLINE_ALLOWED_NETWORKS: '192.168.1.0/24' } });
    const admin = await signupAdmin(server);
    expect((await server.as(admin.token).get('/api/v1/configs/offline')).body).toEqual({ offline: true, enabled: false, forced_by_env: true, allowed_networks: ['192.168.1.0/24'] });
    const off = await server.as(admin.token).post('/api/v1/configs/offline', { enabled: false });
    expect(off.status).toBe(409);
    expect(off.body.detail).toContain('PARLEY_OFFLINE=1');
    const download = await server.as(admin.token).post('/builtin/models/download', { url: EXTERNAL.model });
    expect(download.status).toBe(403);
    expect(download.body.detail).toContain('Parley is offline (PARLEY_OFFLINE=1)');
  });

  it('a bad PARLEY_OFFLINE_ALLOWED_NETWORKS stops the start with the reason', async () => {
    await expect(startTestServer({ envVars: { PARLEY_OFFLINE_ALLOWED_NETWORKS: 'the office' } })).rejects.toThrow(/PARLEY_OFFLINE_ALLOWED_NETWORKS.*'the office' is not an IP address or CIDR range/);
  });
});
