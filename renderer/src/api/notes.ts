import type { AccessControl } from '../../../server/contracts/access';
import type { Note, NoteAssistAction, NoteData, NoteSearchResult } from '../../../server/contracts/notes';
import { ApiError, authHeaders, errorOf, http } from './http';

export type { Note, NoteSearchResult };

const base = '/api/v1/notes';
const one = (id: string) => `${base}/${encodeURIComponent(id)}`;

/** A note's Markdown. */
export function noteText(note: Pick<Note, 'data'> | null | undefined): string {
  const md = note?.data?.content?.md;
  return typeof md === 'string' ? md : '';
}

/** What a save answered: the saved note, or (409) the newer note someone else saved meanwhile. */
export type SaveResult = { saved: Note } | { conflict: Note };

/** Notes: list, search, read, write (with conflict detection), export and the writing assistant. */
export const notesApi = {
  list: () => http.get<Note[]>(`${base}/`),
  search: (query: string, page = 1) => http.get<NoteSearchResult>(`${base}/search`, { query, page }),
  get: (id: string) => http.get<Note>(one(id)),
  create: (title: string, md = '', access_control?: AccessControl) => http.post<Note>(`${base}/create`, { title, data: { content: { md } }, ...(access_control !== undefined ? { access_control } : {}) }),
  /** Saves from `version`; a newer version saved by someone else comes back as a conflict instead of being overwritten. */
  async save(id: string, change: { title?: string; md?: string; access_control?: AccessControl; version?: number }): Promise<SaveResult> {
    const data: NoteData | undefined = change.md === undefined ? undefined : { content: { md: change.md } };
    try {
      const saved = await http.post<Note>(`${one(id)}/update`, { title: change.title, data, access_control: change.access_control, version: change.version });
      return { saved };
    } catch (error) {
      if (error instanceof ApiError && error.status === 409 && error.body?.note) return { conflict: error.body.note as Note };
      throw error;
    }
  },
  remove: (id: string) => http.delete<true>(`${one(id)}/delete`),
  assist: (action: NoteAssistAction, content: string, model?: string) => http.post<{ content: string }>(`${base}/assist`, { action, content, ...(model ? { model } : {}) }),
  /** The note as a Markdown file, downloaded by the browser. */
  async download(id: string): Promise<void> {
    const res = await fetch(`${one(id)}/export`, { headers: authHeaders(), credentials: 'same-origin' });
    if (!res.ok) throw await errorOf(res);
    const name = /filename\*=UTF-8''([^;]+)/.exec(res.headers.get('content-disposition') ?? '')?.[1];
    const url = URL.createObjectURL(await res.blob());
    const link = document.createElement('a');
    link.href = url;
    link.download = name ? decodeURIComponent(name) : 'note.md';
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  },
};
