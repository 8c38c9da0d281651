import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_TASK_CONFIG } from '../../server/contracts/tasks';
import { DEFAULT_PERMISSIONS } from '../../server/contracts/permissions';
import { tableResolve } from '../../server/web';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { sendJson, startFakeWeb, type FakeWeb } from '../fixtures/fake-web';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';

const KEY = 'brave-key-0123456789-SECRET';

function frames(text: string): any[] {
  return text
    .split('\n\n')
    .filter((f) => f.startsWith('data: {'))
    .map((f) => JSON.parse(f.slice(6)));
}

const article = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title></head><body><nav>Home | Shop | About</nav><article><h1>${title}</h1>${body}</article><footer>Copyright</footer></body></html>`;

describe('web search', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let openai: FakeOpenAI;
  let engine: FakeWeb; // the SearXNG instance and the external engine (127.0.0.1: an admin's URL is trusted)
  let pages: FakeWeb; // web pages, on 127.0.0.2 (reachable only when allowed)
  let local: FakeWeb; // a service on this machine that pages must never reach
  /** What the fake SearXNG answers, by query. */
  let results: (q: string) => Array<{ url: string; title: string; content: string }>;

  const enable = (web: Record<string, unknown> = {}) =>
    server.as(admin.token).post('/api/v1/retrieval/config/update', { web: { ENABLE_WEB_SEARCH: true, WEB_SEARCH_ENGINE: 'searxng', SEARXNG_QUERY_URL: engine.url('/search'), WEB_FETCH_ALLOWED_NETWORKS: ['127.0.0.2/32'], ...web } });
  const disable = () => server.as(admin.token).post('/api/v1/retrieval/config/update', { web: { ENABLE_WEB_SEARCH: false } });
  const page = (name: string) => `http://news.example:${pages.port}/${name}`;

  beforeAll(async () => {
    engine = await startFakeWeb({ host: '127.0.0.1' });
    pages = await startFakeWeb({ host: '127.0.0.2' });
    local = await startFakeWeb({ host: '127.0.0.1' });
    engine.route('GET', '/search', (req, res) => sendJson(res, 200, { query: req.query.get('q'), results: results(req.query.get('q') ?? '') }));
    pages.page('/tides', { type: 'text/html', body: article('Tides of Gull Bay', '<p>High tide at Gull Bay comes at 06:40 on Saturday, and the harbour master closes the slipway an hour before.</p><p>The spring tide this month reaches 5.2 metres, the highest of the year.</p>') });
    pages.page('/ferry', { type: 'text/html', body: article('Ferry times', '<p>The Gull Bay ferry leaves every 40 minutes from the north pier; the last crossing is at 22:10.</p>') });
    pages.page('/weather', { type: 'text/html', body: article('Weather', '<p>Saturday brings light winds from the west and sunshine over Gull Bay all afternoon.</p>') });
    pages.redirect('/sneaky', local.url('/admin'));
    local.page('/admin', { type: 'text/plain', body: 'router admin password: hunter2' });
    results = () => [
      { url: page('tides'), title: 'Tides of Gull Bay', content: 'Tide tables for Gull Bay' },
      { url: page('ferry'), title: 'Ferry times', content: 'Ferry timetable' },
      { url: page('weather'), title: 'Weather', content: 'Forecast' },
    ];
    server = await startTestServer({ web: { resolve: tableResolve({ 'news.example': '127.0.0.2', 'intranet.example': '127.0.0.1' }), pageTimeoutMs: 3000 } });
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin, 'user', 'Alice');
    openai = await startFakeOpenAI({ models: ['gpt-fake'] });
    const as = server.as(admin.token);
    await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
    await as.post('/api/v1/tasks/config/update', { ...DEFAULT_TASK_CONFIG, ENABLE_TITLE_GENERATION: false, ENABLE_TAGS_GENERATION: false, ENABLE_FOLLOW_UP_GENERATION: false, ENABLE_SEARCH_QUERY_GENERATION: false });
    await as.post('/api/v1/models/create', { id: 'no-web', name: 'No web', base_model_id: 'gpt-fake', params: {}, meta: { capabilities: { web_search: false } } });
    await as.post('/api/v1/models/create', { id: 'agent', name: 'Agent', base_model_id: 'gpt-fake', params: { function_calling: 'native' }, meta: {} });
  });
  afterAll(async () => {
    await server?.close();
    await openai?.close();
    await Promise.all([engine?.close(), pages?.close(), local?.close()]);
  });
  beforeEach(() => openai.reset());

  describe('settings', () => {
    it('are off by default and part of the retrieval config, for admins only', async () => {
      const res = await server.as(admin.token).get('/api/v1/retrieval/config');
      expect(res.status).toBe(200);
      expect(res.body.web).toMatchObject({ ENABLE_WEB_SEARCH: false, WEB_SEARCH_ENGINE: 'searxng', WEB_SEARCH_RESULT_COUNT: 3, WEB_FETCH_ALLOWED_NETWORKS: [], BRAVE_SEARCH_API_KEY: '' });
      expect(res.body.TOP_K).toBe(5);
      expect((await server.as(alice.token).get('/api/v1/retrieval/config')).status).toBe(403);
      expect((await server.as(alice.token).post('/api/v1/retrieval/config/update', { web: { ENABLE_WEB_SEARCH: true } })).status).toBe(403);
      expect((await server.anon.get('/api/v1/retrieval/config')).status).toBe(401);
    });

    it('keep keys in the secret store, show them masked, and keep a key sent back masked', async () => {
      const as = server.as(admin.token);
      const set = await as.post('/api/v1/retrieval/config/update', { web: { BRAVE_SEARCH_API_KEY: KEY, WEB_SEARCH_RESULT_COUNT: 4 } });
      expect(set.status).toBe(200);
      expect(set.body.web.BRAVE_SEARCH_API_KEY).toBe('••••••••CRET');
      expect(set.body.web.WEB_SEARCH_RESULT_COUNT).toBe(4);
      expect(JSON.stringify(set.body)).not.toContain(KEY);
      // The settings page sends back what it was shown: the key stays.
      await as.post('/api/v1/retrieval/config/update', { web: { BRAVE_SEARCH_API_KEY: '••••••••CRET', WEB_SEARCH_RESULT_COUNT: 3 } });
      expect(await server.services.web.settings.key('BRAVE_SEARCH_API_KEY')).toBe(KEY);
      // The SQLite file holds no copy of it (on PostgreSQL the data dir holds no database).
      const database = path.join(server.dataDir, 'parley.db');
      if (existsSync(database)) expect(readFileSync(database).includes(KEY)).toBe(false);
      expect(readFileSync(path.join(server.dataDir, 'logs', 'parley.log'), 'utf8')).not.toContain(KEY);
      await as.post('/api/v1/retrieval/config/update', { web: { BRAVE_SEARCH_API_KEY: '' } });
      expect((await as.get('/api/v1/retrieval/config')).body.web.BRAVE_SEARCH_API_KEY).toBe('');
    });

    it('refuses bad values with a 400 naming the field, changing nothing', async () => {
      const as = server.as(admin.token);
      for (const web of [{ WEB_FETCH_ALLOWED_NETWORKS: ['intranet'] }, { WEB_SEARCH_ENGINE: 'altavista' }, { WEB_SEARCH_RESULT_COUNT: 0 }, { SEARXNG_QUERY_URL: 'file:///etc/passwd' }, { WEB_SEARCH_DOMAIN_FILTER_LIST: ['bad domain'] }]) {
        const res = await as.post('/api/v1/retrieval/config/update', { TOP_K: 9, web });
        expect(res.status).toBe(400);
        expect(res.body.detail).toContain(Object.keys(web)[0]);
      }
      expect((await as.get('/api/v1/retrieval/config')).body.TOP_K).toBe(5);
    });
  });

  describe('with web search off', () => {
    it('refuses every web request and opens no connection to any engine or page', async () => {
      await disable();
      const before = { engine: engine.connections, pages: pages.connections, local: local.connections };
      const as = server.as(alice.token);
      const chat = await as.post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'tides?' }], features: { web_search: true } });
      expect(chat.status).toBe(403);
      expect(chat.body.detail).toMatch(/turned off/);
      expect((await as.post('/v1/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'tides?' }], features: { web_search: true } })).status).toBe(403);
      expect((await as.post('/api/v1/retrieval/process/web/search', { queries: ['tides'] })).status).toBe(403);
      expect((await as.post('/api/v1/retrieval/process/web', { url: page('tides') })).status).toBe(403);
      // A plain chat works and searches nothing.
      const plain = await as.post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'tides?' }] });
      expect(plain.status).toBe(200);
      expect(plain.body.sources).toBeUndefined();
      expect({ engine: engine.connections, pages: pages.connections, local: local.connections }).toEqual(before);
      expect(openai.chats()).toHaveLength(1);
    });
  });

  describe('in the chat', () => {
    beforeAll(async () => {
      await enable();
    });

    it('streams the search as it goes and answers from the pages with citations linking to them', async () => {
      const res = await server.as(alice.token).post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'When is high tide at Gull Bay on Saturday?' }], stream: true, features: { web_search: true } });
      expect(res.status).toBe(200);
      const all = frames(res.text);
      const statuses = all.filter((f) => f.status).map((f) => f.status);
      expect(statuses[0]).toMatchObject({ action: 'web_search', done: false, queries: ['When is high tide at Gull Bay on Saturday?'] });
      expect(statuses[0].description).toMatch(/^Searching the web for/);
      expect(statuses[1]).toMatchObject({ action: 'web_search', description: 'Reading 3 pages', count: 3, done: false });
      expect(statuses[2]).toMatchObject({ action: 'web_search', description: 'Read 3 pages', done: true });
      const sourcesAt = all.findIndex((f) => f.sources);
      expect(sourcesAt).toBeGreaterThan(all.findIndex((f) => f.status?.done));
      expect(all.findIndex((f) => f.choices?.[0]?.delta?.content)).toBeGreaterThan(sourcesAt);
      const sources = all[sourcesAt].sources;
      expect(sources[0].source).toEqual({ id: page('tides'), name: 'Tides of Gull Bay', type: 'web', url: page('tides') });
      expect(sources[0].document.join(' ')).toContain('06:40');
      expect(sources[0].metadata[0]).toMatchObject({ source: page('tides'), title: 'Tides of Gull Bay' });
      // The model got the numbered passages, the best one first.
      const system = openai.lastChat()!.body.messages[0];
      expect(system.role).toBe('system');
      expect(system.content).toMatch(/<source id="1" name="Tides of Gull Bay">[^<]*06:40/);
      expect(system.content).not.toContain('Copyright');
    });

    it('searches with the code interpreter and memory on together: the model gets the memory, the web pages and how to run Python', async () => {
      expect((await server.as(alice.token).get('/api/config')).body.features).toMatchObject({ enable_web_search: true, enable_code_interpreter: true });
      await server.as(alice.token).post('/api/v1/memories/add', { content: 'My boat is moored at Gull Bay' });
      const res = await server.as(alice.token).post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'When is high tide at Gull Bay for my boat?' }], features: { web_search: true, code_interpreter: true, memory: true } });
      expect(res.status).toBe(200);
      expect(res.body.sources.map((s: any) => s.source.url)).toContain(page('tides'));
      expect(res.body.memories.map((m: any) => m.content)).toEqual(['My boat is moored at Gull Bay']);
      const sent = openai.lastChat()!.body;
      const system = sent.messages[0].content as string;
      expect(system).toContain('My boat is moored at Gull Bay');
      expect(system).toMatch(/<source id="1" name="Tides of Gull Bay">[^<]*06:40/);
      expect(system).toContain('#### Code interpreter');
      expect(sent.tools.map((t: any) => t.function.name)).toContain('execute_python');
    });

    it('answers JSON with the web sources, and on /v1 too', async () => {
      const json = await server.as(alice.token).post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'Gull Bay ferry last crossing' }], features: { web_search: true } });
      expect(json.status).toBe(200);
      expect(json.body.sources.map((s: any) => s.source.url)).toContain(page('ferry'));
      const v1 = await server.as(alice.token).post('/v1/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'Gull Bay ferry last crossing' }], features: { web_search: true } });
      expect(v1.status).toBe(200);
      expect(v1.body.sources.map((s: any) => s.source.url)).toContain(page('ferry'));
      expect(openai.lastChat()!.body.messages[0].content).toContain('22:10');
    });

    it('saves the web sources on the chat message', async () => {
      const chat = await server.as(alice.token).post('/api/v1/chats/new', { chat: { title: 'Tides' } });
      const res = await server.as(alice.token).post('/api/chat/completions', { model: 'gpt-fake', chat_id: chat.body.id, messages: [{ role: 'user', content: 'Gull Bay spring tide' }], features: { web_search: true } });
      expect(res.status).toBe(200);
      const saved = await server.as(alice.token).get(`/api/v1/chats/${chat.body.id}`);
      const answer = saved.body.messages[saved.body.messages.length - 1];
      expect(answer.sources.some((s: any) => s.source.url === page('tides'))).toBe(true);
    });

    it('passes whole pages when retrieval is bypassed', async () => {
      await enable({ BYPASS_WEB_SEARCH_EMBEDDING_AND_RETRIEVAL: true });
      const res = await server.as(alice.token).post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'tides' }], features: { web_search: true } });
      expect(res.body.sources).toHaveLength(3);
      expect(res.body.sources.every((s: any) => s.document.length === 1)).toBe(true);
      await enable({ BYPASS_WEB_SEARCH_EMBEDDING_AND_RETRIEVAL: false });
    });

    it('never reads a result that leads to this machine, and still answers', async () => {
      const before = local.connections;
      results = () => [
        { url: `http://127.0.0.1:${local.port}/admin`, title: 'Admin', content: 'router' },
        { url: `http://intranet.example:${local.port}/admin`, title: 'Intranet', content: 'router' },
        { url: page('sneaky'), title: 'Sneaky', content: 'a redirect' },
        { url: page('tides'), title: 'Tides of Gull Bay', content: 'Tide tables' },
      ];
      await enable({ WEB_SEARCH_RESULT_COUNT: 4 });
      const res = await server.as(alice.token).post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'router admin password' }], stream: true, features: { web_search: true } });
      expect(res.status).toBe(200);
      expect(res.text).not.toContain('hunter2');
      expect(openai.lastChat()!.body.messages[0].content).not.toContain('hunter2');
      const done = frames(res.text).find((f) => f.status?.done)!.status;
      expect(done).toMatchObject({ description: 'Read 1 page', urls: [page('tides')] });
      expect(local.connections).toBe(before);
      results = () => [
        { url: page('tides'), title: 'Tides of Gull Bay', content: 'Tide tables for Gull Bay' },
        { url: page('ferry'), title: 'Ferry times', content: 'Ferry timetable' },
        { url: page('weather'), title: 'Weather', content: 'Forecast' },
      ];
      await enable({ WEB_SEARCH_RESULT_COUNT: 3 });
    });

    it('says so in the stream when the engine fails, and answers anyway', async () => {
      await enable({ SEARXNG_QUERY_URL: engine.url('/broken') });
      const res = await server.as(alice.token).post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'tides' }], stream: true, features: { web_search: true } });
      expect(res.status).toBe(200);
      const failed = frames(res.text).find((f) => f.status?.error)!.status;
      expect(failed.description).toMatch(/searxng.*404/);
      expect(frames(res.text).map((f) => f.choices?.[0]?.delta?.content ?? '').join('')).toBe('You said: tides');
      await enable();
    });

    it('gives models that call tools natively web_search and fetch_url instead', async () => {
      openai.replyOnce({ text: '', tool_calls: [{ id: 'c1', name: 'fetch_url', arguments: { url: page('ferry') } }] });
      openai.replyOnce({ text: 'The last ferry leaves at 22:10.' });
      const res = await server.as(alice.token).post('/api/chat/completions', { model: 'agent', messages: [{ role: 'user', content: 'Last ferry?' }], features: { web_search: true } });
      expect(res.status).toBe(200);
      const [first, second] = openai.chats();
      expect(first!.body.tools.map((t: any) => t.function.name)).toEqual(['web_search', 'fetch_url']);
      const toolMessage = second!.body.messages.find((m: any) => m.role === 'tool');
      expect(toolMessage.content).toContain('22:10');
      expect(res.body.choices[0].message.content).toBe('The last ferry leaves at 22:10.');
    });

    it('fetch_url refuses private addresses for the model too', async () => {
      openai.replyOnce({ text: '', tool_calls: [{ id: 'c2', name: 'fetch_url', arguments: { url: `http://127.0.0.1:${local.port}/admin` } }] });
      openai.replyOnce({ text: 'I could not read it.' });
      const before = local.connections;
      await server.as(alice.token).post('/api/chat/completions', { model: 'agent', messages: [{ role: 'user', content: 'read the router page' }], features: { web_search: true } });
      const toolMessage = openai.chats()[1]!.body.messages.find((m: any) => m.role === 'tool');
      expect(toolMessage.content).toMatch(/^Error: .*private/);
      expect(local.connections).toBe(before);
    });
  });

  describe('access', () => {
    beforeAll(async () => {
      await enable();
    });

    it('refuses a model without the web_search capability', async () => {
      const res = await server.as(alice.token).post('/api/chat/completions', { model: 'no-web', messages: [{ role: 'user', content: 'x' }], features: { web_search: true } });
      expect(res.status).toBe(403);
      expect(res.body.detail).toContain('no-web');
      expect((await server.as(alice.token).post('/v1/chat/completions', { model: 'no-web', messages: [{ role: 'user', content: 'x' }], features: { web_search: true } })).status).toBe(403);
    });

    it('refuses users without the features.web_search permission, everywhere', async () => {
      const as = server.as(admin.token);
      await as.post('/api/v1/users/default/permissions', { ...DEFAULT_PERMISSIONS, features: { ...DEFAULT_PERMISSIONS.features, web_search: false } });
      try {
        const bob = server.as(alice.token);
        expect((await bob.post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'x' }], features: { web_search: true } })).status).toBe(403);
        expect((await bob.post('/v1/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'x' }], features: { web_search: true } })).status).toBe(403);
        expect((await bob.post('/api/v1/retrieval/process/web/search', { queries: ['x'] })).status).toBe(403);
        expect((await bob.post('/api/v1/retrieval/process/web', { url: page('tides') })).status).toBe(403);
        // A group can grant it back.
        const group = await as.post('/api/v1/groups/create', { name: 'Researchers', description: '', permissions: { features: { web_search: true } } });
        await as.post(`/api/v1/groups/id/${group.body.id}/users/add`, { user_ids: [alice.id] });
        expect((await bob.post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'x' }], features: { web_search: true } })).status).toBe(200);
      } finally {
        await as.post('/api/v1/users/default/permissions', DEFAULT_PERMISSIONS);
      }
    });

    it('refuses anonymous callers and bad bodies', async () => {
      expect((await server.anon.post('/api/v1/retrieval/process/web/search', { queries: ['x'] })).status).toBe(401);
      expect((await server.anon.post('/api/v1/retrieval/process/web', { url: page('tides') })).status).toBe(401);
      const as = server.as(alice.token);
      for (const body of [{}, { queries: [] }, { queries: [''] }, { queries: 'tides' }, { queries: Array(11).fill('x') }]) expect([400, 422]).toContain((await as.post('/api/v1/retrieval/process/web/search', body)).status);
      for (const body of [{}, { url: '' }, { url: 5 }]) expect([400, 422]).toContain((await as.post('/api/v1/retrieval/process/web', body)).status);
      expect([400, 422]).toContain((await as.post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'x' }], features: { web_search: 'yes' } })).status);
    });
  });

  describe('process endpoints', () => {
    beforeAll(async () => {
      await enable();
    });

    it('process/web/search indexes the pages as the caller’s files, searchable right away', async () => {
      const res = await server.as(alice.token).post('/api/v1/retrieval/process/web/search', { queries: ['gull bay tides'] });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: true, collection_name: null, filenames: [page('tides'), page('ferry'), page('weather')], loaded_count: 3 });
      expect(res.body.items[0]).toEqual({ link: page('tides'), title: 'Tides of Gull Bay', snippet: 'Tide tables for Gull Bay' });
      expect(res.body.collection_names).toHaveLength(3);
      const found = await server.as(alice.token).post('/api/v1/retrieval/query/collection', { collection_names: res.body.collection_names, query: 'spring tide metres', k: 3 });
      expect(found.status).toBe(200);
      expect(found.body.documents[0].join(' ')).toContain('5.2 metres');
      // Another user cannot read them.
      const bob = await buildUser(server, admin, 'user', 'Bob');
      expect((await server.as(bob.token).post('/api/v1/retrieval/query/collection', { collection_names: res.body.collection_names, query: 'tide' })).status).toBe(404);
    });

    it('process/web reads one page into a file of its own, or into a knowledge base', async () => {
      const as = server.as(alice.token);
      const own = await as.post('/api/v1/retrieval/process/web', { url: page('ferry') });
      expect(own.status).toBe(200);
      expect(own.body).toMatchObject({ status: true, filename: page('ferry'), file: { meta: { name: 'Ferry times', source: page('ferry') } } });
      expect(own.body.collection_name).toBe(`file-${own.body.file.id}`);
      expect(own.body.file.data.content).toContain('22:10');
      const kb = await as.post('/api/v1/knowledge/create', { name: 'Harbour', description: '' });
      const added = await as.post('/api/v1/retrieval/process/web', { url: page('tides'), collection_name: kb.body.id });
      expect(added.status).toBe(200);
      expect(added.body.collection_name).toBe(kb.body.id);
      const files = await as.get(`/api/v1/knowledge/${kb.body.id}`);
      expect(files.body.files.map((f: any) => f.id)).toContain(added.body.file.id);
      // Someone else's knowledge base: not found, nothing saved.
      const bob = await buildUser(server, admin, 'user', 'Bob');
      expect((await server.as(bob.token).post('/api/v1/retrieval/process/web', { url: page('tides'), collection_name: kb.body.id })).status).toBe(404);
    });

    it('process/web refuses private addresses, binary files and other schemes with a 400 saying why', async () => {
      const as = server.as(alice.token);
      pages.page('/file.bin', { type: 'application/octet-stream', body: Buffer.from([0, 1, 2, 3]) });
      const before = local.connections;
      const cases: Array<[string, RegExp]> = [
        [`http://127.0.0.1:${local.port}/admin`, /private, local or reserved/],
        [`http://intranet.example:${local.port}/admin`, /private, local or reserved/],
        ['http://169.254.169.254/latest/meta-data/', /private, local or reserved/],
        [page('sneaky'), /private, local or reserved/],
        [page('file.bin'), /Only text/],
        ['file:///etc/passwd', /Only http and https/],
      ];
      for (const [url, reason] of cases) {
        const res = await as.post('/api/v1/retrieval/process/web', { url });
        expect(res.status).toBe(400);
        expect(res.body.detail).toMatch(reason);
      }
      expect(local.connections).toBe(before);
    });

    it('process/web/search gives the pages’ text without indexing when retrieval is bypassed', async () => {
      await enable({ BYPASS_WEB_SEARCH_EMBEDDING_AND_RETRIEVAL: true });
      const res = await server.as(alice.token).post('/api/v1/retrieval/process/web/search', { queries: ['tides'] });
      expect(res.body).toMatchObject({ collection_name: null, collection_names: [], loaded_count: 3 });
      expect(res.body.docs[0]).toMatchObject({ metadata: { source: page('tides'), title: 'Tides of Gull Bay' } });
      expect(res.body.docs[0].content).toContain('06:40');
      await enable();
    });
  });
});
