import type { Memory } from '../../../server/contracts/memories';
import { http } from './http';

export type { Memory };

const base = '/api/v1/memories';

/** The signed-in person's memories. */
export const memoriesApi = {
  list: () => http.get<Memory[]>(`${base}/`),
  add: (content: string) => http.post<Memory>(`${base}/add`, { content }),
  update: (id: string, content: string) => http.post<Memory>(`${base}/${encodeURIComponent(id)}/update`, { content }),
  remove: (id: string) => http.delete<true>(`${base}/${encodeURIComponent(id)}`),
  wipe: () => http.delete<true>(`${base}/delete/user`),
  suggest: (messages: Array<{ role: 'user' | 'assistant'; content: string }>, model?: string) => http.post<{ suggestions: string[] }>(`${base}/suggest`, { messages, ...(model ? { model } : {}) }),
};
