import type { ModelLibrary } from './model-library';
import { RuntimeFailure, type RuntimeHost } from './runtime/runtime-host';

/** A candidate's relevance to the query, as the reranker scored it (0..1). */
export interface LocalRerankResult {
  index: number;
  relevance_score: number;
}

/** A built-in model could not rerank: not in the library, not a reranker, or the runtime failed. */
export class LocalRerankError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LocalRerankError';
  }
}

/**
 * The local reranker: a cross-encoder GGUF of the built-in library (kind `reranker`) scores each
 * candidate against the query in the runtime process, like the external `/rerank` service does
 * over HTTP. Answers the best `topN`, highest first, in the external reranker's shape.
 */
export function createBuiltinReranker(deps: { library: Pick<ModelLibrary, 'runtimeModel'>; runtime: Pick<RuntimeHost, 'rank'> }) {
  return {
    async rerank(options: { model: string; query: string; documents: string[]; topN: number; signal?: AbortSignal }): Promise<LocalRerankResult[]> {
      if (options.documents.length === 0) return [];
      const model = await deps.library.runtimeModel(options.model);
      if (!model) throw new LocalRerankError(`the built-in model '${options.model}' is not in the library (or not downloaded yet)`);
      let scores: number[];
      try {
        scores = await deps.runtime.rank(model, options.query, options.documents, options.signal);
      } catch (error) {
        throw new LocalRerankError(error instanceof RuntimeFailure || error instanceof Error ? error.message : String(error));
      }
      return scores
        .map((relevance_score, index) => ({ index, relevance_score }))
        .sort((a, b) => b.relevance_score - a.relevance_score)
        .slice(0, Math.max(0, options.topN));
    },
  };
}
export type BuiltinReranker = ReturnType<typeof createBuiltinReranker>;
