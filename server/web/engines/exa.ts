import { arrayAt, kept, needsKey, result, type SearchEngine } from './engine';

/**
 * Exa: POST /search `{query, numResults, type: 'auto', contents: {text: {maxCharacters}}}` with
 * `x-api-key`, allowed domains as `includeDomains`; results `[{title, url, text}]`.
 */
export const exa: SearchEngine = {
  id: 'exa',
  keys: ['EXA_API_KEY'],
  missing: (_settings, key) => needsKey('EXA_API_KEY', key),
  async search(query, { http, key, endpoint }) {
    const json = {
      query: query.query,
      numResults: Math.min(100, query.count),
      type: 'auto',
      contents: { text: { maxCharacters: 1000 } },
      ...(query.filter.allowed.length > 0 ? { includeDomains: query.filter.allowed } : {}),
      ...(query.filter.blocked.length > 0 ? { excludeDomains: query.filter.blocked } : {}),
    };
    const body = await http.json({ method: 'POST', url: endpoint('https://api.exa.ai/search'), headers: { 'x-api-key': key('EXA_API_KEY') }, json, signal: query.signal });
    return kept(arrayAt(body, 'results').map((r) => result(r.url, r.title, r.text)), query);
  },
};
