import { arrayAt, kept, result, type SearchEngine } from './engine';

/**
 * SearXNG, self-hosted: GET `SEARXNG_QUERY_URL?q=…&format=json` (JSON output must be enabled in
 * the instance's settings.yml), results ordered by their `score`. A legacy URL holding
 * `<query>` has its query string dropped.
 */
export const searxng: SearchEngine = {
  id: 'searxng',
  keys: [],
  missing: (settings) => (settings.SEARXNG_QUERY_URL ? null : 'SEARXNG_QUERY_URL is not set'),
  async search(query, { http, settings }) {
    const base = settings.SEARXNG_QUERY_URL.includes('<query>') ? settings.SEARXNG_QUERY_URL.split('?')[0]! : settings.SEARXNG_QUERY_URL;
    const url = new URL(base);
    url.searchParams.set('q', query.query);
    url.searchParams.set('format', 'json');
    url.searchParams.set('pageno', '1');
    url.searchParams.set('safesearch', '1');
    const body = await http.json({ url, signal: query.signal });
    const rows = arrayAt(body, 'results').sort((a, b) => (Number(b.score) || 0) - (Number(a.score) || 0));
    return kept(rows.map((r) => result(r.url, r.title, r.content)), query);
  },
};
