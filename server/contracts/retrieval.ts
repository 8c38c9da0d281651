import { z } from 'zod';
import { WebConfigUpdate, WebConfigView } from './web';
import { OptionalUrl } from './urls';

const PositiveInt = z.number().int('must be an integer').positive('must be greater than 0');
const NonNegativeInt = z.number().int('must be an integer').min(0, 'must be 0 or more');
const Unit = z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1');

/** Retrieval settings (section 2, "Retrieval config fields"). */
export const RetrievalConfig = z.object({
  /** `external`: PUT files to EXTERNAL_DOCUMENT_LOADER_URL for their text; `` (empty): built-in extractors. */
  CONTENT_EXTRACTION_ENGINE: z.enum(['', 'external']),
  EXTERNAL_DOCUMENT_LOADER_URL: OptionalUrl,
  /** Post text to CHUNKING_SERVER_URL and take its chunks instead of chunking here. */
  ENABLE_CHUNKING_SERVER: z.boolean(),
  CHUNKING_SERVER_URL: OptionalUrl,
  /** `A` fixed size, `E` parent/child, `H` HTML-aware. */
  CHUNKING_STRATEGY: z.enum(['A', 'E', 'H']),
  /** Strategy A: size and overlap in characters (TEXT_SPLITTER `character`) or tokens (`token`). */
  CHUNK_SIZE: PositiveInt,
  CHUNK_OVERLAP: NonNegativeInt,
  TEXT_SPLITTER: z.enum(['character', 'token']),
  /** Strategy E, in characters: parents are returned, children are searched. */
  PARENT_CHUNK_SIZE: PositiveInt,
  PARENT_CHUNK_OVERLAP: NonNegativeInt,
  CHILD_CHUNK_SIZE: PositiveInt,
  CHILD_CHUNK_OVERLAP: NonNegativeInt,
  /** Strategy H, in characters: largest and smallest chunk, overlap, and how much of the heading trail is kept as context. */
  HTML_CHUNK_SIZE: PositiveInt,
  HTML_MIN_CHUNK_SIZE: NonNegativeInt,
  HTML_CHUNK_OVERLAP: NonNegativeInt,
  HTML_CONTEXT_WINDOW: NonNegativeInt,
  /** BM25 plus vectors; off: vectors only. */
  ENABLE_RAG_HYBRID_SEARCH: z.boolean(),
  TOP_K: PositiveInt.max(1000, 'must be at most 1000'),
  TOP_K_RERANKER: PositiveInt.max(1000, 'must be at most 1000'),
  /** Minimum relevance (0..1) of a chunk to be used. */
  RELEVANCE_THRESHOLD: Unit,
  /** 0 = fully semantic, 1 = fully lexical. */
  HYBRID_BM25_WEIGHT: Unit,
  /** How the two rankings are combined: normalised score blending or reciprocal rank fusion. */
  HYBRID_FUSION: z.enum(['blend', 'rrf']),
  /**
   * `external`: send candidates to RAG_EXTERNAL_RERANKER_URL (the common /rerank shape);
   * `builtin`: score them on this computer with the built-in library's reranker RAG_RERANKING_MODEL.
   */
  RAG_RERANKING_ENGINE: z.enum(['', 'external', 'builtin']),
  RAG_EXTERNAL_RERANKER_URL: OptionalUrl,
  /** The external reranker's model name, or the built-in library entry's id (kind `reranker`). */
  RAG_RERANKING_MODEL: z.string().trim().max(512),
});
export type RetrievalConfig = z.infer<typeof RetrievalConfig>;

/** POST /api/v1/retrieval/config/update: any subset of the fields; the rest is kept. */
export const RetrievalConfigUpdate = RetrievalConfig.partial().extend({
  /** Sent as `Authorization: Bearer <key>` to the external reranker; kept in the secret store ('' removes it). */
  RAG_EXTERNAL_RERANKER_API_KEY: z.string().max(4096, 'must be at most 4096 characters').optional(),
  /** Web search settings (any subset). */
  web: WebConfigUpdate.optional(),
});
export type RetrievalConfigUpdate = z.infer<typeof RetrievalConfigUpdate>;
/** GET /api/v1/retrieval/config: the settings with the reranker key from the secret store. */
export const RetrievalSettingsView = RetrievalConfig.extend({ RAG_EXTERNAL_RERANKER_API_KEY: z.string() });
export type RetrievalSettingsView = z.infer<typeof RetrievalSettingsView>;
/** GET /api/v1/retrieval/config with the web search settings (`web`, keys masked). */
export const RetrievalConfigView = RetrievalSettingsView.extend({ web: WebConfigView });
export type RetrievalConfigView = z.infer<typeof RetrievalConfigView>;

/**
 * Defaults of a fresh install. TOP_K and the weight are the interface's; TOP_K_RERANKER is 5, not
 * the interface's 10 (results kept after reranking never exceed TOP_K), and RELEVANCE_THRESHOLD is
 * 0.4, not 0.7: measured with the built-in offline embedder a fresh install uses
 * (`npm run bench:retrieval -- --only threshold`), at 0.7 seven questions in ten asked as a
 * sentence found no passage although their base held the answer; 0.4 separates relevant passages
 * from the best of an unrelated base (see the README's retrieval notes).
 */
export const DEFAULT_RETRIEVAL_CONFIG: RetrievalConfig = {
  CONTENT_EXTRACTION_ENGINE: '',
  EXTERNAL_DOCUMENT_LOADER_URL: '',
  ENABLE_CHUNKING_SERVER: false,
  CHUNKING_SERVER_URL: '',
  CHUNKING_STRATEGY: 'A',
  CHUNK_SIZE: 1000,
  CHUNK_OVERLAP: 100,
  TEXT_SPLITTER: 'character',
  PARENT_CHUNK_SIZE: 2000,
  PARENT_CHUNK_OVERLAP: 200,
  CHILD_CHUNK_SIZE: 400,
  CHILD_CHUNK_OVERLAP: 50,
  HTML_CHUNK_SIZE: 1000,
  HTML_MIN_CHUNK_SIZE: 200,
  HTML_CHUNK_OVERLAP: 100,
  HTML_CONTEXT_WINDOW: 200,
  ENABLE_RAG_HYBRID_SEARCH: true,
  TOP_K: 5,
  TOP_K_RERANKER: 5,
  RELEVANCE_THRESHOLD: 0.4,
  HYBRID_BM25_WEIGHT: 0.5,
  HYBRID_FUSION: 'blend',
  RAG_RERANKING_ENGINE: '',
  RAG_EXTERNAL_RERANKER_URL: '',
  RAG_RERANKING_MODEL: '',
};

const Endpoint = z.object({ url: OptionalUrl, key: z.string().max(4096) });

/** Embedding settings (section 2, "Embedding config"). Keys live in the secret store. */
export const EmbeddingConfig = z.object({
  /** `` (empty): the built-in offline embedder; `compat`: OpenAI-compatible /embeddings; `local`: Ollama /api/embed; `builtin`: a GGUF embedding model of the built-in library (its id as `embedding_model`). */
  embedding_engine: z.enum(['', 'compat', 'local', 'builtin']),
  embedding_model: z.string().trim().max(512),
  /** Texts per provider request. */
  embedding_batch_size: PositiveInt.max(2048, 'must be at most 2048'),
  /** Where `compat` sends requests; an empty url uses the first configured compatible provider. */
  compat_config: Endpoint,
  /** Where `local` sends requests; an empty url uses the first configured local provider. */
  local_config: Endpoint,
  cloud_compat_config: Endpoint.extend({ version: z.string().trim().max(100) }),
});
export type EmbeddingConfig = z.infer<typeof EmbeddingConfig>;

/** POST /api/v1/retrieval/embedding/update: any subset; each endpoint object may send url and/or key. */
export const EmbeddingConfigUpdate = z
  .object({
    embedding_engine: EmbeddingConfig.shape.embedding_engine,
    embedding_model: EmbeddingConfig.shape.embedding_model,
    embedding_batch_size: EmbeddingConfig.shape.embedding_batch_size,
    compat_config: Endpoint.partial(),
    local_config: Endpoint.partial(),
    cloud_compat_config: EmbeddingConfig.shape.cloud_compat_config.partial(),
  })
  .partial()
  .refine((v) => !(v.embedding_engine && v.embedding_model === ''), {
    message: 'is required when an embedding engine is set',
    path: ['embedding_model'],
  });
export type EmbeddingConfigUpdate = z.infer<typeof EmbeddingConfigUpdate>;

/** Progress of re-embedding after a model change. */
export const ReembedStatus = z.object({
  status: z.enum(['idle', 'running', 'failed']),
  done: z.number(),
  total: z.number(),
  error: z.string().optional(),
});
export type ReembedStatus = z.infer<typeof ReembedStatus>;

/** GET /api/v1/retrieval/embedding: the settings with keys, plus re-embedding progress. */
export const EmbeddingConfigResponse = EmbeddingConfig.extend({ reembedding: ReembedStatus });
export type EmbeddingConfigResponse = z.infer<typeof EmbeddingConfigResponse>;

/** POST /api/v1/retrieval/query/collection. */
export const QueryCollectionRequest = z.object({
  collection_names: z.array(z.string().min(1).max(200)).min(1, 'must name at least one collection').max(100),
  query: z.string().min(1, 'must not be empty').max(10_000),
  k: PositiveInt.max(1000, 'must be at most 1000').optional(),
  /** Overrides of the configured search for this call. */
  hybrid: z.boolean().optional(),
  relevance_threshold: Unit.optional(),
  hybrid_bm25_weight: Unit.optional(),
});
export type QueryCollectionRequest = z.infer<typeof QueryCollectionRequest>;

/** Answer of the query endpoint, in the common nested-list shape (one list per query). */
export const QueryCollectionResponse = z.object({
  documents: z.array(z.array(z.string())),
  metadatas: z.array(z.array(z.record(z.string(), z.unknown()))),
  /** Relevance 0..1 (higher is closer), as the common API calls it. */
  distances: z.array(z.array(z.number())),
});
export type QueryCollectionResponse = z.infer<typeof QueryCollectionResponse>;

/** A cited source as the completion stream and the saved message carry it. */
export interface RetrievalSource {
  /** `[n]` in the injected context. */
  index: number;
  source: { id: string; name: string; type: 'collection' | 'file' };
  document: string[];
  metadata: Array<Record<string, unknown>>;
  distances: number[];
}
