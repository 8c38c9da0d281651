import type { GraphStatusResponse, GraphToggleResponse } from '../../../server/contracts/graph';
import type { AccessControl } from '../../../server/contracts/access';
import type { AnalysisLanguage, KnowledgeDetail, KnowledgeFile, KnowledgeFileEvent, KnowledgeFilePreview, KnowledgeSummary } from '../../../server/contracts/knowledge';
import { authHeaders, errorOf, http } from './http';

export type { AnalysisLanguage, GraphStatusResponse, KnowledgeDetail, KnowledgeFilePreview, KnowledgeFile, KnowledgeFileEvent, KnowledgeSummary };

const one = (id: string) => `/api/knowledge/${encodeURIComponent(id)}`;
const v1 = (id: string) => `/api/v1/knowledge/${encodeURIComponent(id)}`;

/** Section 4.6: knowledge bases and their graph. */
export const knowledgeApi = {
  list: () => http.get<KnowledgeSummary[]>('/api/knowledge'),
  create: (name: string, description: string) => http.post<KnowledgeSummary>('/api/knowledge/create', { name, description }),
  get: (id: string) => http.get<KnowledgeDetail>(v1(id)),
  update: (id: string, name: string, description: string, access_control?: AccessControl, language?: AnalysisLanguage) =>
    http.post<KnowledgeDetail>(`${one(id)}/update`, { name, description, ...(access_control !== undefined ? { access_control } : {}), ...(language !== undefined ? { language } : {}) }),
  preview: (id: string, fileId: string) => http.get<KnowledgeFilePreview>(`${v1(id)}/file/${encodeURIComponent(fileId)}/preview`),
  remove: (id: string) => http.delete<{ success: boolean }>(`${one(id)}/delete`),
  addFile: (id: string, file_id: string) => http.post<KnowledgeDetail>(`${one(id)}/file/add`, { file_id }),
  removeFile: (id: string, file_id: string) => http.post<KnowledgeDetail>(`${one(id)}/file/remove`, { file_id }),
  graphStatus: (id: string) => http.get<GraphStatusResponse>(`${v1(id)}/graph/status`),
  toggleGraph: (id: string, enabled: boolean) => http.post<GraphToggleResponse>(`${one(id)}/graph/toggle`, { enabled }),
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
