import { z } from 'zod';
import { defineSection, type ConfigService } from '../config';
import { DEFAULT_RETRIEVAL_CONFIG, RetrievalConfig, type EmbeddingConfig, type EmbeddingConfigUpdate, type RetrievalConfigUpdate, type RetrievalSettingsView } from '../contracts/retrieval';
import { badRequest, unprocessable } from '../platform/http/errors';
import type { SecretStore } from '../secrets';

/** Admin retrieval settings (4.7). */
export const RetrievalSection = defineSection<RetrievalConfig>('retrieval', RetrievalConfig, DEFAULT_RETRIEVAL_CONFIG);

const StoredEndpoint = z.object({ url: z.string() });
const StoredEmbedding = z.object({
  embedding_engine: z.enum(['', 'compat', 'local', 'builtin']),
  embedding_model: z.string(),
  embedding_batch_size: z.number().int().positive(),
  compat_config: StoredEndpoint,
  local_config: StoredEndpoint,
  cloud_compat_config: StoredEndpoint.extend({ version: z.string() }),
});
type StoredEmbedding = z.infer<typeof StoredEmbedding>;

/** Embedding settings without keys (keys live in the secret store). */
export const EmbeddingSection = defineSection<StoredEmbedding>('retrieval.embedding', StoredEmbedding, {
  embedding_engine: '',
  embedding_model: '',
  embedding_batch_size: 32,
  compat_config: { url: '' },
  local_config: { url: '' },
  cloud_compat_config: { url: '', version: '' },
});

const ENDPOINTS = ['compat_config', 'local_config', 'cloud_compat_config'] as const;
/** Secret store name of an embedding endpoint's key. */
const secretName = (endpoint: (typeof ENDPOINTS)[number]) => `embedding:${endpoint}`;

/** Reads and writes the embedding settings, keys included. */
export function createEmbeddingSettings(deps: { config: ConfigService; secrets: SecretStore }) {
  const { config, secrets } = deps;
  return {
    async get(): Promise<EmbeddingConfig> {
      const stored = await config.get(EmbeddingSection);
      const key = async (endpoint: (typeof ENDPOINTS)[number]) => (await secrets.get(secretName(endpoint))) ?? '';
      return {
        ...stored,
        compat_config: { ...stored.compat_config, key: await key('compat_config') },
        local_config: { ...stored.local_config, key: await key('local_config') },
        cloud_compat_config: { ...stored.cloud_compat_config, key: await key('cloud_compat_config') },
      };
    },
    /** Applies a validated subset; returns the new settings. */
    async update(patch: EmbeddingConfigUpdate): Promise<EmbeddingConfig> {
      const current = await config.get(EmbeddingSection);
      const next: StoredEmbedding = {
        embedding_engine: patch.embedding_engine ?? current.embedding_engine,
        embedding_model: patch.embedding_model ?? current.embedding_model,
        embedding_batch_size: patch.embedding_batch_size ?? current.embedding_batch_size,
        compat_config: { url: patch.compat_config?.url ?? current.compat_config.url },
        local_config: { url: patch.local_config?.url ?? current.local_config.url },
        cloud_compat_config: {
          url: patch.cloud_compat_config?.url ?? current.cloud_compat_config.url,
          version: patch.cloud_compat_config?.version ?? current.cloud_compat_config.version,
        },
      };
      for (const endpoint of ENDPOINTS) {
        const key = patch[endpoint]?.key;
        if (key === undefined) continue;
        if (key === '') await secrets.delete(secretName(endpoint));
        else await secrets.set(secretName(endpoint), key);
      }
      await config.set(EmbeddingSection, next);
      return this.get();
    },
  };
}
export type EmbeddingSettings = ReturnType<typeof createEmbeddingSettings>;

/** Overlaps must be smaller than their chunk sizes: [overlap field, size field]. */
const OVERLAP_RULES = [
  ['CHUNK_OVERLAP', 'CHUNK_SIZE'],
  ['PARENT_CHUNK_OVERLAP', 'PARENT_CHUNK_SIZE'],
  ['CHILD_CHUNK_OVERLAP', 'CHILD_CHUNK_SIZE'],
  ['HTML_CHUNK_OVERLAP', 'HTML_CHUNK_SIZE'],
  ['HTML_MIN_CHUNK_SIZE', 'HTML_CHUNK_SIZE'],
] as const;

/** Secret store name of the external reranker's key. */
export const RERANKER_KEY_SECRET = 'retrieval:reranker';

/** Reads and updates the retrieval settings (the reranker key in the secret store), checking rules that span fields. */
export function createRetrievalSettings(config: ConfigService, secrets: SecretStore) {
  const view = async (cfg: RetrievalConfig): Promise<RetrievalSettingsView> => ({ ...cfg, RAG_EXTERNAL_RERANKER_API_KEY: (await secrets.get(RERANKER_KEY_SECRET)) ?? '' });
  return {
    get: async () => view(await config.get(RetrievalSection)),
    /**
     * Merges a validated subset; 400 naming the field when the result breaks a rule, 422 when
     * TOP_K_RERANKER (kept after reranking) would exceed TOP_K (each value fine alone).
     */
    async update(update: Omit<RetrievalConfigUpdate, 'web'>): Promise<RetrievalSettingsView> {
      const { RAG_EXTERNAL_RERANKER_API_KEY: key, ...patch } = update;
      const next = { ...(await config.get(RetrievalSection)), ...patch };
      for (const [small, large] of OVERLAP_RULES) {
        if (next[small] >= next[large]) throw badRequest(`Field '${small}': must be smaller than ${large} (${next[large]})`);
      }
      if (next.CHILD_CHUNK_SIZE > next.PARENT_CHUNK_SIZE) throw badRequest(`Field 'CHILD_CHUNK_SIZE': must not exceed PARENT_CHUNK_SIZE (${next.PARENT_CHUNK_SIZE})`);
      if (next.CONTENT_EXTRACTION_ENGINE === 'external' && !next.EXTERNAL_DOCUMENT_LOADER_URL) throw badRequest("Field 'EXTERNAL_DOCUMENT_LOADER_URL': is required when CONTENT_EXTRACTION_ENGINE is external");
      if (next.ENABLE_CHUNKING_SERVER && !next.CHUNKING_SERVER_URL) throw badRequest("Field 'CHUNKING_SERVER_URL': is required when ENABLE_CHUNKING_SERVER is on");
      if (next.RAG_RERANKING_ENGINE === 'external' && !next.RAG_EXTERNAL_RERANKER_URL) throw badRequest("Field 'RAG_EXTERNAL_RERANKER_URL': is required when RAG_RERANKING_ENGINE is external");
      if (next.RAG_RERANKING_ENGINE === 'builtin' && !next.RAG_RERANKING_MODEL) throw badRequest("Field 'RAG_RERANKING_MODEL': is required when RAG_RERANKING_ENGINE is builtin (the id of a built-in reranker model)");
      if (next.TOP_K_RERANKER > next.TOP_K) {
        throw unprocessable(`Field 'TOP_K_RERANKER': the results kept after reranking (${next.TOP_K_RERANKER}) must not exceed TOP_K (${next.TOP_K}); lower it or raise TOP_K in the same request`, 'TOP_K_RERANKER_ABOVE_TOP_K');
      }
      if (key !== undefined) {
        if (key === '') await secrets.delete(RERANKER_KEY_SECRET);
        else await secrets.set(RERANKER_KEY_SECRET, key);
      }
      return view(await config.set(RetrievalSection, next));
    },
  };
}
export type RetrievalSettings = ReturnType<typeof createRetrievalSettings>;
