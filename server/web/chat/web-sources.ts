import type { CompletionSource } from '../../contracts/completions';
import type { WebSearchResult } from '../../contracts/web';
import type { RankedPassage } from './ranker';

/** A page that went into an answer: read whole, or only known by the engine's snippet. */
export interface SourcePage {
  url: string;
  title: string;
  text: string;
}

/** Longest text of one page given whole (bypass), in characters. */
export const WHOLE_PAGE_CHARS = 12_000;

/** One source per page (in the order of its best passage), each passage a document of it. */
export function sourcesFromPassages(pages: readonly SourcePage[], passages: readonly RankedPassage[]): CompletionSource[] {
  const byPage = new Map<number, CompletionSource>();
  for (const passage of passages) {
    const page = pages[passage.index];
    if (!page) continue;
    let source = byPage.get(passage.index);
    if (!source) {
      source = { source: { id: page.url, name: page.title || page.url, type: 'web', url: page.url }, document: [], metadata: [], distances: [] };
      byPage.set(passage.index, source);
    }
    source.document.push(passage.text);
    source.metadata.push({ source: page.url, url: page.url, title: page.title, name: page.title || page.url, relevance: passage.score });
    source.distances!.push(passage.score);
  }
  return [...byPage.values()];
}

/** Whole pages as sources (BYPASS_WEB_SEARCH_EMBEDDING_AND_RETRIEVAL), each cut to {@link WHOLE_PAGE_CHARS}. */
export function sourcesFromPages(pages: readonly SourcePage[]): CompletionSource[] {
  return sourcesFromPassages(
    pages,
    pages.map((page, i) => ({ index: i, text: page.text.length > WHOLE_PAGE_CHARS ? `${page.text.slice(0, WHOLE_PAGE_CHARS)}…` : page.text, score: 1 })),
  );
}

/** Search results known only by their snippets (their pages could not be read). */
export function snippetPages(results: readonly WebSearchResult[]): SourcePage[] {
  return results.filter((r) => r.snippet.trim() !== '').map((r) => ({ url: r.link, title: r.title, text: r.snippet }));
}
