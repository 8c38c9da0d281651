import { arrayAt, kept, needsKey, result, type SearchEngine } from './engine';

/**
 * Tavily: POST /search `{query, max_results, include_domains, exclude_domains}` with a Bearer key;
 * results `[{title, url, content, score}]`.
 */
export const tavily: SearchEngine = {
  id: 'tavily',
  keys: ['TAVILY_API_KEY'],
  missing: (_settings, key) => needsKey('TAVILY_API_KEY', key),
  async search(query, { http, key, endpoint }) {
    const json = {
      query: query.query,
      max_results: Math.min(20, query.count),
      ...(query.filter.allowed.length > 0 ? { include_domains: query.filter.allowed } : {}),
      ...(query.filter.blocked.length > 0 ? { exclude_domains: query.filter.blocked } : {}),
    };
    const body = await http.json({ method: 'POST', url: endpoint('https://api.tavily.com/search'), headers: { authorization: `Bearer ${key('TAVILY_API_KEY')}` }, json, signal: query.signal });
    return kept(arrayAt(body, 'results').map((r) => result(r.url, r.title, r.content)), query);
  },
};
