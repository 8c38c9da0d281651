import { arrayAt, kept, needsKey, result, type SearchEngine } from './engine';

/** Kagi Search API: GET /api/v0/search?q&limit with `Authorization: Bot <key>`; `data` entries of type `t: 0` are results. */
export const kagi: SearchEngine = {
  id: 'kagi',
  keys: ['KAGI_SEARCH_API_KEY'],
  missing: (_settings, key) => needsKey('KAGI_SEARCH_API_KEY', key),
  async search(query, { http, key, endpoint }) {
    const url = new URL(endpoint('https://kagi.com/api/v0/search'));
    url.searchParams.set('q', query.query);
    url.searchParams.set('limit', String(query.count));
    const body = await http.json({ url, headers: { authorization: `Bot ${key('KAGI_SEARCH_API_KEY')}` }, signal: query.signal });
    return kept(arrayAt(body, 'data').filter((r) => r.t === 0).map((r) => result(r.url, r.title, r.snippet)), query);
  },
};
