import type { EmbeddingConfigResponse, RetrievalConfig } from '../../../server/contracts/retrieval';
import type { TaskConfig } from '../../../server/contracts/tasks';
import { http } from './http';

export type { RetrievalConfig, TaskConfig };
/** Embedding settings with the re-embedding progress. */
export type EmbeddingConfig = EmbeddingConfigResponse;

/** Sections 4.7 and 4.10: retrieval, embedding and task settings, plus the task helpers the chat uses. */
export const settingsApi = {
  retrieval: () => http.get<RetrievalConfig>('/api/v1/retrieval/config'),
  // The web search settings (`web`) have a page of their own: never sent back from here.
  setRetrieval: ({ web: _web, ...body }: RetrievalConfig & { web?: unknown }) => http.post<RetrievalConfig>('/api/v1/retrieval/config/update', body),
  embedding: () => http.get<EmbeddingConfig>('/api/v1/retrieval/embedding'),
  setEmbedding: (body: EmbeddingConfig) => http.post<EmbeddingConfig>('/api/v1/retrieval/embedding/update', body),
  tasks: () => http.get<TaskConfig>('/api/v1/tasks/config'),
  setTasks: (body: TaskConfig) => http.post<TaskConfig>('/api/v1/tasks/config/update', body),
  followUps: (messages: Array<{ role: string; content: string }>, response: string) => http.post<string[] | { follow_ups: string[] }>('/api/v1/tasks/follow-up', { messages, response }),
};
