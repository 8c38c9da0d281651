import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TASK_CONFIG } from '../../server/contracts/tasks';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { sendJson, startFakeWeb, type FakeWeb } from '../fixtures/fake-web';
import { signupAdmin, type TestUser } from '../helpers/builders';
import { startBuiltService, type BuiltService } from './built-service';

const SLOW = 120_000;

/** An article in a page with a menu and a footer: only Readability (bundled, on the page worker) tells them apart. */
const article = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><div class="site-menu"><a href="/">Home</a> <a href="/shop">Marmalade shop</a></div><div id="content" class="article-body"><h1>${title}</h1>${body}</div><div class="site-footer">Copyright Quillworth Media. Privacy policy.</div></body></html>`;

/**
 * Web search as `npm run serve` runs it: the engine client, the guarded page fetcher (undici),
 * linkedom and Readability on the page worker thread, and the ranking of passages, all from the
 * bundled chunks in dist/.
 */
describe('web search in the built service', () => {
  let service: BuiltService;
  let admin: TestUser;
  let openai: FakeOpenAI;
  let engine: FakeWeb; // a SearXNG instance on this machine (an admin's URL is trusted)
  let pages: FakeWeb; // web pages on 127.0.0.2, readable only because its network is allowed

  beforeAll(async () => {
    [service, openai, engine, pages] = await Promise.all([startBuiltService(), startFakeOpenAI({ models: ['gpt-fake'] }), startFakeWeb({ host: '127.0.0.1' }), startFakeWeb({ host: '127.0.0.2' })]);
    pages.page('/crane', {
      type: 'text/html',
      body: article('The harbour crane', '<p>The old harbour crane at Port Wendell was restored in the spring by volunteers, who spent four months replacing its rusted gears and repainting the jib in signal red.</p><p>Engineers confirmed that the crane can once again lift eleven tonnes, the load it was designed for in 1911.</p>'),
    });
    pages.page('/regatta', { type: 'text/html', body: article('Summer regatta', '<p>The Port Wendell summer regatta starts on the first Saturday of August at ten, with the restored crane lifting the boats into the water one by one.</p><p>Crews register at the harbour office until Thursday evening; the race runs twice around the lighthouse and back to the fish market.</p>') });
    engine.route('GET', '/search', (req, res) =>
      sendJson(res, 200, {
        query: req.query.get('q'),
        results: [
          { url: pages.url('/crane'), title: 'The harbour crane', content: 'Port Wendell crane restored' },
          { url: pages.url('/regatta'), title: 'Summer regatta', content: 'Regatta in August' },
        ],
      }),
    );
    admin = await signupAdmin(service);
    const as = service.as(admin.token);
    expect((await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} })).status).toBe(200);
    const quiet = { ...DEFAULT_TASK_CONFIG, ENABLE_TITLE_GENERATION: false, ENABLE_TAGS_GENERATION: false, ENABLE_FOLLOW_UP_GENERATION: false, ENABLE_SEARCH_QUERY_GENERATION: false };
    expect((await as.post('/api/v1/tasks/config/update', quiet)).status).toBe(200);
    const web = { ENABLE_WEB_SEARCH: true, WEB_SEARCH_ENGINE: 'searxng', SEARXNG_QUERY_URL: engine.url('/search'), WEB_FETCH_ALLOWED_NETWORKS: ['127.0.0.2/32'] };
    expect((await as.post('/api/v1/retrieval/config/update', { web })).status).toBe(200);
  }, 90_000);

  afterAll(async () => {
    await Promise.all([service?.close(), openai?.close(), engine?.close(), pages?.close()]);
  });

  it('searches, reads the pages and indexes them (process/web/search)', async () => {
    const res = await service.as(admin.token).post('/api/v1/retrieval/process/web/search', { queries: ['harbour crane'] });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: true, loaded_count: 2, filenames: [pages.url('/crane'), pages.url('/regatta')] });
    expect(res.body.collection_names).toHaveLength(2);
  }, SLOW);

  it('answers a chat with the globe on from the pages, citing them, without their menus', async () => {
    const res = await service.as(admin.token).post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'How much can the Port Wendell crane lift?' }], features: { web_search: true } });
    expect(res.status, res.text).toBe(200);
    const sources = res.body.sources as Array<{ source: { url?: string; type?: string }; document: string[] }>;
    const crane = sources.find((s) => s.source.url === pages.url('/crane'));
    expect(crane?.source.type).toBe('web');
    expect(crane?.document.join(' ')).toContain('eleven tonnes');
    const system = openai.lastChat()!.body.messages[0];
    expect(system.content).toContain('eleven tonnes');
    expect(system.content).not.toMatch(/Marmalade|Quillworth/);
  }, SLOW);

  it('never reads a page on this machine, even when the engine points there', async () => {
    const asked = engine.requests.length;
    engine.route('GET', '/search', (req, res) => sendJson(res, 200, { query: req.query.get('q'), results: [{ url: engine.url('/search?q=inside'), title: 'Inside', content: 'loopback' }] }));
    const res = await service.as(admin.token).post('/api/v1/retrieval/process/web/search', { queries: ['inside'] });
    // The engine was asked once; the page on 127.0.0.1 (the engine's own address) was refused before any request.
    expect(engine.requests.slice(asked).map((r) => r.path)).toEqual(['/search']);
    expect(res.status === 200 ? res.body.loaded_count : 0).toBe(0);
  }, SLOW);

  it('logged no error and never fell back from the page worker to the main thread', () => {
    const troubles = service.output().split('\n').filter((line) => /working in-process|"level":(5|6)\d/.test(line));
    expect(troubles).toEqual([]);
    expect(service.exited()).toBeUndefined();
  });
});
