import { arrayAt, kept, needsKey, result, type SearchEngine } from './engine';

/**
 * Jina search: POST https://s.jina.ai/ `{q, count}` with a Bearer key and `Accept:
 * application/json`; results in `data` as `[{title, url, description, content}]`.
 */
export const jina: SearchEngine = {
  id: 'jina',
  keys: ['JINA_API_KEY'],
  missing: (_settings, key) => needsKey('JINA_API_KEY', key),
  async search(query, { http, key, endpoint }) {
    const body = await http.json({
      method: 'POST',
      url: endpoint('https://s.jina.ai/'),
      headers: { authorization: `Bearer ${key('JINA_API_KEY')}`, 'x-retain-images': 'none' },
      json: { q: query.query, count: Math.min(10, query.count) },
      signal: query.signal,
    });
    return kept(arrayAt(body, 'data').map((r) => result(r.url, r.title, r.description || r.content)), query);
  },
};
