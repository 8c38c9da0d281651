import type { WebSearchResult } from '../../contracts/web';
import { arrayAt, kept, result, type SearchEngine } from './engine';

/**
 * Google Programmable Search: GET /customsearch/v1?key&cx&q&num&start, at most 10 results per
 * page (pages are asked for until `count` results came or none are left); results in `items`.
 */
export const googlePse: SearchEngine = {
  id: 'google_pse',
  keys: ['GOOGLE_PSE_API_KEY'],
  missing: (settings, key) => (!key('GOOGLE_PSE_API_KEY') ? 'GOOGLE_PSE_API_KEY is not set' : !settings.GOOGLE_PSE_ENGINE_ID ? 'GOOGLE_PSE_ENGINE_ID is not set' : null),
  async search(query, { http, key, settings, endpoint }) {
    const found: Array<WebSearchResult | null> = [];
    for (let start = 1; found.length < query.count && start <= 91; start += 10) {
      const url = new URL(endpoint('https://www.googleapis.com/customsearch/v1'));
      url.searchParams.set('key', key('GOOGLE_PSE_API_KEY'));
      url.searchParams.set('cx', settings.GOOGLE_PSE_ENGINE_ID);
      url.searchParams.set('q', query.query);
      url.searchParams.set('num', String(Math.min(10, query.count - found.length)));
      url.searchParams.set('start', String(start));
      const items = arrayAt(await http.json({ url, signal: query.signal }), 'items');
      if (items.length === 0) break;
      found.push(...items.map((r) => result(r.link, r.title, r.snippet)));
    }
    return kept(found, query);
  },
};
