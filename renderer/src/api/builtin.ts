import type { BuiltinConfigResponse, BuiltinConfigUpdate, BuiltinDownloadRequest, BuiltinModel, RecommendedModel } from '../../../server/contracts/builtin';
import { http, uploadForm } from './http';

export type { BuiltinConfigResponse, BuiltinModel, RecommendedModel };

/** Built-in local models: the library, downloads and the runtime settings (`/builtin/*`). */
export const builtinApi = {
  list: () => http.get<BuiltinModel[]>('/builtin/models'),
  get: (id: string) => http.get<BuiltinModel>(`/builtin/models/${encodeURIComponent(id)}`),
  recommended: () => http.get<RecommendedModel[]>('/builtin/recommended'),
  /** Uploads a .gguf (checked by the service before it is listed). */
  importFile: (file: File, onProgress?: (fraction: number) => void) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return uploadForm<BuiltinModel>('/builtin/models/import', form, onProgress);
  },
  importPath: (path: string) => http.post<BuiltinModel>('/builtin/models/import', { path }),
  download: (body: BuiltinDownloadRequest) => http.post<BuiltinModel>('/builtin/models/download', body),
  pause: (id: string) => http.post<BuiltinModel>(`/builtin/models/${encodeURIComponent(id)}/pause`),
  resume: (id: string) => http.post<BuiltinModel>(`/builtin/models/${encodeURIComponent(id)}/resume`),
  cancel: (id: string) => http.post<true>(`/builtin/models/${encodeURIComponent(id)}/cancel`),
  remove: (id: string) => http.delete<true>(`/builtin/models/${encodeURIComponent(id)}`),
  config: () => http.get<BuiltinConfigResponse>('/builtin/config'),
  setConfig: (patch: BuiltinConfigUpdate) => http.post<BuiltinConfigResponse>('/builtin/config', patch),
};
