/**
 * Embedding and reranking models by the names providers give them (`text-embedding-3-small`,
 * `nomic-embed-text`, `mxbai-embed-large`, `bge-m3`, `multilingual-e5-large`, `all-minilm`,
 * `bge-reranker-v2-m3`). Providers say nothing else about a model's kind, and such models cannot
 * chat: pickers of chat and task models leave them out.
 */
const EMBEDDING_NAME = /embed|rerank|minilm|(^|[/:._-])(bge|e5|gte)([-_.:]|$)/i;

/** Whether `providerModelId` names an embedding or reranking model rather than a chat model. */
export function isEmbeddingModel(providerModelId: string): boolean {
  return EMBEDDING_NAME.test(providerModelId);
}
