import { arrayAt, kept, needsKey, result, type SearchEngine } from './engine';

/** Bing Web Search v7: GET BING_SEARCH_V7_ENDPOINT?q&count&responseFilter=Webpages with `Ocp-Apim-Subscription-Key`; results in `webPages.value`. */
export const bing: SearchEngine = {
  id: 'bing',
  keys: ['BING_SEARCH_V7_SUBSCRIPTION_KEY'],
  missing: (settings, key) => needsKey('BING_SEARCH_V7_SUBSCRIPTION_KEY', key) ?? (settings.BING_SEARCH_V7_ENDPOINT ? null : 'BING_SEARCH_V7_ENDPOINT is not set'),
  async search(query, { http, key, settings, endpoint }) {
    const url = new URL(endpoint(settings.BING_SEARCH_V7_ENDPOINT));
    url.searchParams.set('q', query.query);
    url.searchParams.set('count', String(Math.min(50, query.count)));
    url.searchParams.set('responseFilter', 'Webpages');
    const body = await http.json({ url, headers: { 'ocp-apim-subscription-key': key('BING_SEARCH_V7_SUBSCRIPTION_KEY') }, signal: query.signal });
    return kept(arrayAt(body, 'webPages', 'value').map((r) => result(r.url, r.name, r.snippet)), query);
  },
};
