import { kept, type SearchEngine } from './engine';

/**
 * DuckDuckGo without a key, best effort: POST the query to its HTML endpoint
 * (html.duckduckgo.com/html/) and read the result list from the page (parsed off the main
 * thread). DuckDuckGo may change that page or refuse automated queries at any time.
 */
export const duckduckgo: SearchEngine = {
  id: 'duckduckgo',
  keys: [],
  missing: () => null,
  async search(query, { http, endpoint, parseHtmlResults }) {
    const html = await http.text({ method: 'POST', url: endpoint('https://html.duckduckgo.com/html/'), form: { q: query.query, kl: 'wt-wt' }, signal: query.signal });
    return kept(await parseHtmlResults(html), query);
  },
};
