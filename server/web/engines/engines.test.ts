import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeResults, installFakeEngines, type FakeEngines } from '../../../test/fixtures/fake-search-engines';
import { startFakeWeb, type FakeWeb } from '../../../test/fixtures/fake-web';
import { DEFAULT_WEB_CONFIG, WEB_SEARCH_ENGINES, type WebConfig, type WebSearchEngine } from '../../contracts/web';
import { HttpError } from '../../platform/http/errors';
import { duckduckgoResults } from '../extract/page-extract';
import { searchWeb } from '../web-search';
import { createEngineHttp } from './engine-http';

const KEY = 'test-key-0123456789abcdef';

describe('search engines against fakes of their documented APIs', () => {
  let web: FakeWeb;
  let fakes: FakeEngines;
  const http = createEngineHttp({ gate: () => undefined });

  beforeAll(async () => {
    web = await startFakeWeb();
    fakes = installFakeEngines(web, { key: KEY });
  });
  afterAll(async () => {
    await http.close();
    await web.close();
  });

  const settingsFor = (engine: WebSearchEngine, extra: Partial<WebConfig> = {}): WebConfig => ({
    ...DEFAULT_WEB_CONFIG,
    ENABLE_WEB_SEARCH: true,
    WEB_SEARCH_ENGINE: engine,
    SEARXNG_QUERY_URL: fakes.endpoint('searxng'),
    BING_SEARCH_V7_ENDPOINT: fakes.endpoint('bing'),
    EXTERNAL_WEB_SEARCH_URL: fakes.endpoint('external'),
    GOOGLE_PSE_ENGINE_ID: 'cx-1',
    ...extra,
  });
  const run = (engine: WebSearchEngine, queries: string[], extra: Partial<WebConfig> = {}, key = KEY) =>
    searchWeb({ http, key: async () => key, endpoints: fakes.endpoints as Record<WebSearchEngine, string>, parseHtmlResults: duckduckgoResults }, settingsFor(engine, extra), queries);
  const lastRequest = () => web.requests[web.requests.length - 1]!;

  it.each(WEB_SEARCH_ENGINES.filter((e) => e !== 'searxng' && e !== 'serper'))('%s: results in the engine order, link, title and snippet', async (engine) => {
    const results = await run(engine, ['solar panels'], { WEB_SEARCH_RESULT_COUNT: 3 });
    const expected = fakeResults(engine === 'google_pse' ? 'google' : engine, 'solar panels', 3);
    expect(results).toEqual(expected);
  });

  it('SearXNG: asks for JSON and orders by score', async () => {
    const results = await run('searxng', ['tides'], { WEB_SEARCH_RESULT_COUNT: 3 });
    const request = lastRequest();
    expect(request.method).toBe('GET');
    expect(request.query.get('format')).toBe('json');
    expect(request.query.get('q')).toBe('tides');
    const all = fakeResults('searxng', 'tides', 5);
    expect(results.map((r) => r.link)).toEqual([all[1]!.link, all[0]!.link, all[2]!.link]);
  });

  it('SearXNG: a legacy query URL with <query> still works', async () => {
    const results = await run('searxng', ['moon'], { SEARXNG_QUERY_URL: `${fakes.endpoint('searxng')}?q=<query>` });
    expect(results).toHaveLength(3);
  });

  it('Serper: orders organic results by position', async () => {
    const results = await run('serper', ['wind']);
    expect(results.map((r) => r.title)).toEqual(fakeResults('serper', 'wind', 3).map((r) => r.title));
    expect(JSON.parse(lastRequest().body)).toEqual({ q: 'wind', num: 3 });
  });

  it('sends each key the way its API wants it', async () => {
    await run('brave', ['a']);
    expect(lastRequest().headers['x-subscription-token']).toBe(KEY);
    await run('tavily', ['a']);
    expect(lastRequest().headers.authorization).toBe(`Bearer ${KEY}`);
    await run('kagi', ['a']);
    expect(lastRequest().headers.authorization).toBe(`Bot ${KEY}`);
    await run('exa', ['a']);
    expect(lastRequest().headers['x-api-key']).toBe(KEY);
    await run('bing', ['a']);
    expect(lastRequest().headers['ocp-apim-subscription-key']).toBe(KEY);
    await run('google_pse', ['a']);
    expect(lastRequest().query.get('key')).toBe(KEY);
    expect(lastRequest().query.get('cx')).toBe('cx-1');
    await run('external', ['a']);
    expect(JSON.parse(lastRequest().body)).toEqual({ query: 'a', count: 3 });
    await run('duckduckgo', ['a b']);
    expect(lastRequest().method).toBe('POST');
    expect(new URLSearchParams(lastRequest().body).get('q')).toBe('a b');
  });

  it('Google PSE: pages through results ten at a time', async () => {
    const before = web.requests.length;
    const results = await run('google_pse', ['rivers'], { WEB_SEARCH_RESULT_COUNT: 15 });
    expect(results).toEqual(fakeResults('google', 'rivers', 15));
    const pages = web.requests.slice(before);
    expect(pages.map((r) => [r.query.get('start'), r.query.get('num')])).toEqual([
      ['1', '10'],
      ['11', '5'],
    ]);
  });

  it('Kagi: keeps search results and leaves related searches out', async () => {
    const results = await run('kagi', ['bees'], { WEB_SEARCH_RESULT_COUNT: 4 });
    expect(results).toEqual(fakeResults('kagi', 'bees', 4));
  });

  it('DuckDuckGo: unwraps its redirect links and leaves ads out', async () => {
    const results = await run('duckduckgo', ['owls'], { WEB_SEARCH_RESULT_COUNT: 5 });
    expect(results.map((r) => r.link)).toEqual(fakeResults('duckduckgo', 'owls', 5).map((r) => r.link));
    expect(results.some((r) => r.link.includes('duckduckgo.com'))).toBe(false);
  });

  it('merges several queries without duplicates', async () => {
    const results = await run('brave', ['same', 'same', 'other']);
    expect(results).toHaveLength(6);
    expect(new Set(results.map((r) => r.link)).size).toBe(6);
  });

  it('keeps filtered domains out, and tells engines that can restrict a search', async () => {
    const blocked = await run('brave', ['x'], { WEB_SEARCH_DOMAIN_FILTER_LIST: ['!site1.example'] });
    expect(blocked.some((r) => r.link.includes('site1.example'))).toBe(false);
    const only = await run('tavily', ['x'], { WEB_SEARCH_DOMAIN_FILTER_LIST: ['site2.example'] });
    expect(only.map((r) => new URL(r.link).hostname)).toEqual(['site2.example']);
    expect(JSON.parse(lastRequest().body).include_domains).toEqual(['site2.example']);
  });

  it('a refused key is a 400 naming the engine, and never shows the key', async () => {
    const error = await run('google_pse', ['x'], {}, 'wrong-key-zzzz').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(400);
    expect((error as HttpError).message).toMatch(/google_pse.*400/);
    expect((error as HttpError).message).not.toContain('wrong-key-zzzz');
  });

  it('a missing key or URL is a 400 saying which setting to fill', async () => {
    const error = (await run('brave', ['x'], {}, '').catch((e: unknown) => e)) as HttpError;
    expect(error.status).toBe(400);
    expect(error.message).toContain('BRAVE_SEARCH_API_KEY');
    const noUrl = (await run('searxng', ['x'], { SEARXNG_QUERY_URL: '' }).catch((e: unknown) => e)) as HttpError;
    expect(noUrl.message).toContain('SEARXNG_QUERY_URL');
  });

  it('while the outbound gate refuses (offline), no engine is asked and the 403 says why', async () => {
    const offline = createEngineHttp({
      gate: ({ host, purpose }) => {
        throw new Error(`Parley is offline (PARLEY_OFFLINE=1): it makes no connection to ${host} (${purpose})`);
      },
    });
    const asked = web.requests.length;
    try {
      const error = (await searchWeb({ http: offline, key: async () => KEY, endpoints: fakes.endpoints as Record<WebSearchEngine, string>, parseHtmlResults: duckduckgoResults }, settingsFor('searxng'), ['tides']).catch((e: unknown) => e)) as HttpError;
      expect(error).toBeInstanceOf(HttpError);
      expect(error.status).toBe(403);
      expect(error.code).toBe('OFFLINE');
      expect(error.message).toMatch(/Parley is offline \(PARLEY_OFFLINE=1\).*web-engine/);
      expect(web.requests.length).toBe(asked);
    } finally {
      await offline.close();
    }
  });
});
