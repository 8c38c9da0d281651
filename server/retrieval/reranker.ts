import { assertOutboundAllowed } from '../platform/net/outbound';

/** One candidate's new relevance from the reranker. */
export interface RerankResult {
  index: number;
  relevance_score: number;
}

/** A reranker on this computer (the built-in library's): the best `topN` candidates, highest first, 0..1. */
export type LocalReranker = (options: { model: string; query: string; documents: string[]; topN: number }) => Promise<RerankResult[]>;

/**
 * Asks an external reranker to order `documents` for `query`, in the common `/rerank` shape:
 * `POST {model, query, documents, top_n}` → `{results: [{index, relevance_score}]}`.
 * Scores outside 0..1 are squashed with a logistic so the relevance threshold keeps its meaning.
 */
export async function rerank(options: { url: string; model: string; query: string; documents: string[]; topN: number; timeoutMs?: number; apiKey?: string }): Promise<RerankResult[]> {
  await assertOutboundAllowed('reranker', options.url);
  const response = await fetch(options.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
    body: JSON.stringify({ model: options.model, query: options.query, documents: options.documents, top_n: options.topN }),
    signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
  });
  if (!response.ok) throw new Error(`the reranker answered ${response.status}`);
  const body = (await response.json()) as { results?: Array<{ index?: unknown; relevance_score?: unknown; score?: unknown }> };
  if (!Array.isArray(body.results)) throw new Error('the reranker answered without a results list');
  return body.results
    .map((r) => ({ index: Number(r.index), score: Number(r.relevance_score ?? r.score) }))
    .filter((r) => Number.isInteger(r.index) && r.index >= 0 && r.index < options.documents.length && Number.isFinite(r.score))
    .map((r) => ({ index: r.index, relevance_score: r.score >= 0 && r.score <= 1 ? r.score : 1 / (1 + Math.exp(-r.score)) }))
    .sort((a, b) => b.relevance_score - a.relevance_score);
}
