import type { ProcessWebResponse, WebConfigUpdate, WebConfigView } from '../../../server/contracts/web';
import type { RetrievalConfigView } from '../../../server/contracts/retrieval';
import { http } from './http';

export type { WebConfigView, WebConfigUpdate };

/** Web search: its settings (the retrieval config's `web`) and reading a page into a knowledge base. */
export const webApi = {
  settings: async () => (await http.get<RetrievalConfigView>('/api/v1/retrieval/config')).web,
  setSettings: async (web: WebConfigUpdate) => (await http.post<RetrievalConfigView>('/api/v1/retrieval/config/update', { web })).web,
  /** Reads the page at `url` again and adds it to the knowledge base `knowledgeId` as a file. */
  saveToKnowledge: (url: string, knowledgeId: string) => http.post<ProcessWebResponse>('/api/v1/retrieval/process/web', { url, collection_name: knowledgeId }),
};
