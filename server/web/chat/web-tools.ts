import type { ToolSpec } from '../../providers';
import { toolCallArgument, type ToolCall } from '../../providers';
import type { WebService } from '../web.service';
import type { PassageRanker } from './ranker';

/** Longest page text a `fetch_url` call answers, in characters. */
export const FETCH_URL_CHARS = 20_000;

/** The tools a model with native function calling gets when web search is on for the answer. */
export const WEB_TOOL_SPECS: ToolSpec[] = [
  {
    type: 'function',
    function: {
      name: 'web_search',
      description: 'Search the web. Answers the best passages of the top pages, each with its number, title and URL; cite them as [n].',
      parameters: { type: 'object', properties: { query: { type: 'string', description: 'What to search for' } }, required: ['query'] },
    },
  },
  {
    type: 'function',
    function: {
      name: 'fetch_url',
      description: 'Read one web page and answer its text.',
      parameters: { type: 'object', properties: { url: { type: 'string', description: 'The http(s) address of the page' } }, required: ['url'] },
    },
  },
];

/** True for a call of one of the web tools. */
export const isWebTool = (name: string) => name === 'web_search' || name === 'fetch_url';

/** Runs a web tool call; a failure is thrown with a reason the model can read. */
export async function runWebTool(deps: { web: Pick<WebService, 'search' | 'read' | 'readOne'>; rank: PassageRanker }, call: ToolCall, signal: AbortSignal): Promise<string> {
  if (call.function.name === 'fetch_url') {
    const page = await deps.web.readOne(toolCallArgument(call, 'url'), signal);
    const text = page.text.length > FETCH_URL_CHARS ? `${page.text.slice(0, FETCH_URL_CHARS)}…` : page.text;
    return `${page.title}\n${page.url}\n\n${text}`;
  }
  const query = toolCallArgument(call, 'query');
  const results = await deps.web.search([query], signal);
  if (results.length === 0) return 'No results.';
  const outcomes = await deps.web.read(results.map((r) => r.link), { signal });
  const pages = outcomes.map((o, i) => (o.ok ? { url: o.url, title: o.title || results[i]!.title, text: o.text } : { url: results[i]!.link, title: results[i]!.title, text: results[i]!.snippet }));
  const passages = await deps.rank(pages, [query], { k: 6, signal });
  return passages.map((p, i) => `[${i + 1}] ${pages[p.index]!.title}\n${pages[p.index]!.url}\n${p.text}`).join('\n\n') || results.map((r, i) => `[${i + 1}] ${r.title}\n${r.link}\n${r.snippet}`).join('\n\n');
}
