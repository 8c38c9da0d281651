import type { StoredFile } from '../../../server/contracts/files';
import { http } from './http';

/** Uploaded files: metadata and content address. */
export const filesApi = {
  get: (id: string) => http.get<StoredFile>(`/api/v1/files/${encodeURIComponent(id)}`),
  contentUrl: (id: string) => `/api/v1/files/${encodeURIComponent(id)}/content`,
};
