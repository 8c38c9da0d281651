import { kept, result, type SearchEngine } from './engine';

/** Any search service of the office's own: POST `{query, count}` to EXTERNAL_WEB_SEARCH_URL (Bearer key when set), read `[{link, title, snippet}]`. */
export const external: SearchEngine = {
  id: 'external',
  keys: ['EXTERNAL_WEB_SEARCH_API_KEY'],
  missing: (settings) => (settings.EXTERNAL_WEB_SEARCH_URL ? null : 'EXTERNAL_WEB_SEARCH_URL is not set'),
  async search(query, { http, key, settings }) {
    const apiKey = key('EXTERNAL_WEB_SEARCH_API_KEY');
    const body = await http.json({
      method: 'POST',
      url: settings.EXTERNAL_WEB_SEARCH_URL,
      headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
      json: { query: query.query, count: query.count },
      signal: query.signal,
    });
    const rows = Array.isArray(body) ? body.filter((r): r is Record<string, unknown> => r !== null && typeof r === 'object') : [];
    return kept(rows.map((r) => result(r.link, r.title, r.snippet)), query);
  },
};
