import { arrayAt, kept, needsKey, result, type SearchEngine } from './engine';

/** Serper (Google results): POST /search `{q, num}` with `X-API-KEY`; `organic` results in `position` order. */
export const serper: SearchEngine = {
  id: 'serper',
  keys: ['SERPER_API_KEY'],
  missing: (_settings, key) => needsKey('SERPER_API_KEY', key),
  async search(query, { http, key, endpoint }) {
    const body = await http.json({ method: 'POST', url: endpoint('https://google.serper.dev/search'), headers: { 'x-api-key': key('SERPER_API_KEY') }, json: { q: query.query, num: Math.min(100, query.count) }, signal: query.signal });
    const rows = arrayAt(body, 'organic').sort((a, b) => (Number(a.position) || 0) - (Number(b.position) || 0));
    return kept(rows.map((r) => result(r.link, r.title, r.snippet)), query);
  },
};
