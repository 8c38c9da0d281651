import { arrayAt, kept, needsKey, result, type SearchEngine } from './engine';

/** Brave Search API: GET /res/v1/web/search?q&count with `X-Subscription-Token`; results in `web.results`. */
export const brave: SearchEngine = {
  id: 'brave',
  keys: ['BRAVE_SEARCH_API_KEY'],
  missing: (_settings, key) => needsKey('BRAVE_SEARCH_API_KEY', key),
  async search(query, { http, key, endpoint }) {
    const url = new URL(endpoint('https://api.search.brave.com/res/v1/web/search'));
    url.searchParams.set('q', query.query);
    url.searchParams.set('count', String(Math.min(20, query.count)));
    const body = await http.json({ url, headers: { 'x-subscription-token': key('BRAVE_SEARCH_API_KEY') }, signal: query.signal });
    return kept(arrayAt(body, 'web', 'results').map((r) => result(r.url, r.title, r.description)), query);
  },
};
