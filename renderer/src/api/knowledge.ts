import { authHeaders, errorOf, http } from './http';

// Wire types of section 2 "Knowledge base"; they move to server/contracts when the knowledge domain lands.

/** A file of a knowledge base, with its ingestion status. */
export interface KnowledgeFile {
  id: string;
  name: string;
  /** `completed`, or pending/processing/failed while ingestion runs. */
  status: string;
  created_at: number;
  /** Why ingestion failed, when it did. */
  error?: string | null;
  progress?: number;
}

/** A knowledge base (list entries carry file_count; the single item carries files). */
export interface KnowledgeBase {
  id: string;
  name: string;
  description: string;
  file_count?: number;
  files?: KnowledgeFile[];
  created_at: number;
  updated_at: number;
  graph_enabled?: boolean;
}

/** Knowledge graph build state. */
export interface GraphStatus {
  status: string;
  progress: number;
  message?: string;
}

const one = (id: string) => `/api/knowledge/${encodeURIComponent(id)}`;
const v1 = (id: string) => `/api/v1/knowledge/${encodeURIComponent(id)}`;

/** Section 4.6: knowledge bases. */
export const knowledgeApi = {
  list: () => http.get<KnowledgeBase[]>('/api/knowledge'),
  create: (name: string, description: string) => http.post<KnowledgeBase>('/api/knowledge/create', { name, description }),
  get: (id: string) => http.get<KnowledgeBase>(v1(id)),
  update: (id: string, name: string, description: string) => http.post<KnowledgeBase>(`${one(id)}/update`, { name, description }),
  remove: (id: string) => http.delete<{ success: boolean }>(`${one(id)}/delete`),
  addFile: (id: string, file_id: string) => http.post<KnowledgeBase>(`${one(id)}/file/add`, { file_id }),
  removeFile: (id: string, file_id: string) => http.post<KnowledgeBase>(`${one(id)}/file/remove`, { file_id }),
  graphStatus: (id: string) => http.get<GraphStatus>(`${v1(id)}/graph/status`),
  toggleGraph: (id: string, enabled: boolean) => http.post<{ status: string; message: string }>(`${one(id)}/graph/toggle`, { enabled }),
  graphUrl: (id: string) => `${v1(id)}/graph/visualize`,
  /** Downloads the ZIP export and hands it to the browser as a file. */
  export: async (id: string, name: string) => {
    const res = await fetch(`${v1(id)}/export`, { headers: authHeaders(), credentials: 'same-origin' });
    if (!res.ok) throw await errorOf(res);
    const blob = await res.blob();
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = `${name || 'knowledge'}.zip`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 5000);
  },
};
