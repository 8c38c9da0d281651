import type { TaskConfig } from '../../../server/contracts/tasks';
import { http } from './http';

export type { TaskConfig };

// Wire types of sections 2 "Retrieval config" and "Embedding config"; they move to server/contracts when retrieval lands.

/** Retrieval settings (section 2); extra keys the service adds are kept as they are. */
export interface RetrievalConfig {
  CONTENT_EXTRACTION_ENGINE?: string;
  EXTERNAL_DOCUMENT_LOADER_URL?: string;
  ENABLE_CHUNKING_SERVER?: boolean;
  CHUNKING_SERVER_URL?: string;
  CHUNKING_STRATEGY?: 'A' | 'E' | 'H' | string;
  CHUNK_SIZE?: number;
  CHUNK_OVERLAP?: number;
  TEXT_SPLITTER?: 'character' | 'token' | string;
  PARENT_CHUNK_SIZE?: number;
  PARENT_CHUNK_OVERLAP?: number;
  CHILD_CHUNK_SIZE?: number;
  CHILD_CHUNK_OVERLAP?: number;
  HTML_CHUNK_SIZE?: number;
  HTML_MIN_CHUNK_SIZE?: number;
  HTML_CHUNK_OVERLAP?: number;
  HTML_CONTEXT_WINDOW?: number;
  ENABLE_RAG_HYBRID_SEARCH?: boolean;
  TOP_K?: number;
  TOP_K_RERANKER?: number;
  RELEVANCE_THRESHOLD?: number;
  HYBRID_BM25_WEIGHT?: number;
  RAG_EXTERNAL_RERANKER_URL?: string | null;
  RAG_RERANKING_MODEL?: string | null;
  RAG_RERANKING_ENGINE?: string;
  [key: string]: unknown;
}

/** Embedding settings. */
export interface EmbeddingConfig {
  embedding_engine: string;
  embedding_model: string;
  embedding_batch_size: number;
  compat_config?: { url?: string; key?: string };
  local_config?: { url?: string; key?: string };
  cloud_compat_config?: { url?: string; key?: string; version?: string };
  [key: string]: unknown;
}

/** Sections 4.7 and 4.10: retrieval, embedding and task settings, plus the task helpers the chat uses. */
export const settingsApi = {
  retrieval: () => http.get<RetrievalConfig>('/api/v1/retrieval/config'),
  setRetrieval: (body: RetrievalConfig) => http.post<RetrievalConfig>('/api/v1/retrieval/config/update', body),
  embedding: () => http.get<EmbeddingConfig>('/api/v1/retrieval/embedding'),
  setEmbedding: (body: EmbeddingConfig) => http.post<EmbeddingConfig>('/api/v1/retrieval/embedding/update', body),
  tasks: () => http.get<TaskConfig>('/api/v1/tasks/config'),
  setTasks: (body: TaskConfig) => http.post<TaskConfig>('/api/v1/tasks/config/update', body),
  followUps: (messages: Array<{ role: string; content: string }>, response: string) => http.post<string[] | { follow_ups: string[] }>('/api/v1/tasks/follow-up', { messages, response }),
};
