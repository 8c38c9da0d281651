/** A passage of a page, ranked against the search queries. */
export interface RankedPassage {
  /** Index of its page in the list given. */
  index: number;
  text: string;
  /** Relevance 0..1. */
  score: number;
}

/**
 * Ranks the passages of fetched pages against the queries with the hybrid engine (the
 * retrieval domain provides it): the `k` best, best first, each page's passages in
 * reading order where scores tie.
 */
export type PassageRanker = (pages: ReadonlyArray<{ text: string }>, queries: readonly string[], options: { k: number; signal?: AbortSignal }) => Promise<RankedPassage[]>;
