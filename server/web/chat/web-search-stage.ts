import type { CompletionSource, CompletionStatus } from '../../contracts/completions';
import type { WebSearchResult } from '../../contracts/web';
import type { Logger } from '../../platform/log';
import { contentText, type TaskCaller, type TasksService, type TemplateMessage } from '../../tasks';
import type { WebService } from '../web.service';
import type { PassageRanker } from './ranker';
import { snippetPages, sourcesFromPages, sourcesFromPassages, type SourcePage } from './web-sources';

/** Most queries searched for one answer. */
const MAX_QUERIES = 3;
/** Passages of the fetched pages given to the model (ranked search). */
export const WEB_PASSAGES = 8;

export interface WebSearchStageDeps {
  web: Pick<WebService, 'search' | 'read' | 'settings'>;
  tasks: Pick<TasksService, 'queries'>;
  rank: PassageRanker;
  log: Logger;
}

export interface WebSearchStageInput {
  user: TaskCaller;
  /** The conversation (the task model writes queries from it). */
  messages: readonly TemplateMessage[];
  /** The answering model (its task model writes the queries). */
  modelId: string;
  signal: AbortSignal;
  /** Status lines for the stream, in order. */
  status(status: CompletionStatus): void | Promise<void>;
}

/** The text of the last user message. */
function lastUserText(messages: readonly TemplateMessage[]): string {
  const last = [...messages].reverse().find((m) => m.role === 'user');
  return last ? contentText(last.content).trim() : '';
}

const quoted = (queries: readonly string[]) => queries.map((q) => `"${q}"`).join(', ');

/**
 * Web search before the answer: the task model writes the queries, the engine is asked, the top
 * pages are read at the same time, and the passages that answer the queries best (the hybrid
 * engine ranks them; whole pages with BYPASS_WEB_SEARCH_EMBEDDING_AND_RETRIEVAL) become sources
 * to cite. Status lines say what happens ("Searching the web for …", "Reading 3 pages"). A failing
 * engine or page never fails the answer: the status says so and the answer goes on without it.
 */
export async function webSearchStage(deps: WebSearchStageDeps, input: WebSearchStageInput): Promise<CompletionSource[]> {
  const { signal } = input;
  const asked = lastUserText(input.messages);
  const generated = await deps.tasks.queries(input.user, input.messages, 'web_search', { model: input.modelId, signal });
  // A query without a word in it (a task model answering "[1]") searches nothing useful.
  const worded = generated.map((q) => q.trim()).filter((q) => /\p{L}/u.test(q));
  const queries = [...new Set(worded.length > 0 ? worded : [asked].filter(Boolean))].slice(0, MAX_QUERIES);
  if (queries.length === 0) return [];
  await input.status({ action: 'web_search', description: `Searching the web for ${quoted(queries)}`, queries, done: false });
  let results: WebSearchResult[];
  try {
    results = await deps.web.search(queries, signal);
  } catch (error) {
    if (signal.aborted) throw error;
    const reason = error instanceof Error ? error.message : 'the search failed';
    deps.log.warn({ err: error }, 'web search failed');
    await input.status({ action: 'web_search', description: reason, queries, done: true, error: true });
    return [];
  }
  if (results.length === 0) {
    await input.status({ action: 'web_search', description: 'No search results', queries, count: 0, done: true });
    return [];
  }
  const urls = results.map((r) => r.link);
  await input.status({ action: 'web_search', description: `Reading ${urls.length} ${urls.length === 1 ? 'page' : 'pages'}`, urls, count: urls.length, done: false });
  const outcomes = await deps.web.read(urls, { signal });
  if (signal.aborted) throw signal.reason;
  const pages: SourcePage[] = [];
  const unread: WebSearchResult[] = [];
  outcomes.forEach((outcome, i) => {
    if (outcome.ok) pages.push({ url: outcome.url, title: outcome.title || results[i]!.title, text: outcome.text });
    else unread.push(results[i]!);
  });
  for (const failure of outcomes) if (!failure.ok) deps.log.info({ code: failure.code, reason: failure.error }, 'a web page could not be read');
  // Pages that could not be read still count by their snippets.
  const all = [...pages, ...snippetPages(unread)];
  const cfg = await deps.web.settings.get();
  // Passages are ranked against the person's own words too: a generated query can miss, it cannot hide them.
  const rankBy = [...new Set([asked, ...queries].filter(Boolean))];
  const sources = cfg.BYPASS_WEB_SEARCH_EMBEDDING_AND_RETRIEVAL ? sourcesFromPages(all) : sourcesFromPassages(all, await deps.rank(all, rankBy, { k: WEB_PASSAGES, signal }));
  const read = pages.map((p) => p.url);
  await input.status({ action: 'web_search', description: `Read ${read.length} ${read.length === 1 ? 'page' : 'pages'}`, urls: read, count: read.length, done: true });
  return sources;
}
