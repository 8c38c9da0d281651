import type { ChatImportReport, ChatSearchEntry, ChatTagCount, ExportedChat, SharedChat } from '../../../server/contracts/chat-library';
import type { Chat, ChatListEntry } from '../../../server/contracts/chats';
import type { Folder } from '../../../server/contracts/folders';
import type { AccessControl } from '../../../server/contracts/access';
import type { Prompt } from '../../../server/contracts/prompts';
import { authHeaders, errorOf, http, request } from './http';

export type { ChatImportReport, ChatSearchEntry, ChatTagCount, ExportedChat, Folder, Prompt, SharedChat };

const chats = '/api/v1/chats';
const one = (id: string) => `${chats}/${encodeURIComponent(id)}`;

/** Search, folders, tags, share links and export/import of chats. */
export const libraryApi = {
  search: (text: string, page = 1) => http.get<ChatSearchEntry[]>(`${chats}/search`, { text, page }),
  folders: () => http.get<Folder[]>('/api/v1/folders/'),
  createFolder: (name: string, parent_id: string | null = null) => http.post<Folder>('/api/v1/folders/', { name, parent_id }),
  updateFolder: (id: string, changes: { name?: string; parent_id?: string | null; is_expanded?: boolean }) => http.post<Folder>(`/api/v1/folders/${encodeURIComponent(id)}/update`, changes),
  deleteFolder: (id: string) => http.delete<true>(`/api/v1/folders/${encodeURIComponent(id)}`),
  moveChat: (id: string, folder_id: string | null) => http.post<ChatListEntry>(`${one(id)}/folder`, { folder_id }),
  addTag: (id: string, name: string) => http.post<ChatListEntry>(`${one(id)}/tags`, { name }),
  removeTag: (id: string, name: string) => request<ChatListEntry>('DELETE', `${one(id)}/tags`, { body: { name } }),
  allTags: () => http.get<ChatTagCount[]>(`${chats}/all/tags`),
  archiveAll: () => http.post<true>(`${chats}/archive/all`, {}),
  share: (id: string) => http.post<Chat>(`${one(id)}/share`, {}),
  unshare: (id: string) => http.delete<true>(`${one(id)}/share`),
  shared: (shareId: string) => http.get<SharedChat>(`${chats}/share/${encodeURIComponent(shareId)}`),
  sharedOwner: (chatId: string) => http.get<{ name: string; profile_image_url: string }>(`/api/v1/users/shared-${encodeURIComponent(chatId)}`),
  exportAll: () => http.get<ExportedChat[]>(`${chats}/all`),
  exportOne: (id: string) => http.get<ExportedChat>(`${one(id)}/export`),
  /** Markdown text of one chat (or all with no id). */
  async markdown(id?: string): Promise<string> {
    const res = await fetch(id ? `${one(id)}/export?format=markdown` : `${chats}/all?format=markdown`, { headers: authHeaders(), credentials: 'same-origin' });
    if (!res.ok) throw await errorOf(res);
    return res.text();
  },
  import: (list: unknown[]) => http.post<ChatImportReport>(`${chats}/import`, { chats: list }),
};

/** The prompts library. */
export const promptsApi = {
  list: () => http.get<Prompt[]>('/api/v1/prompts/'),
  create: (body: { command: string; title: string; content: string; access_control?: AccessControl }) => http.post<Prompt>('/api/v1/prompts/create', body),
  update: (command: string, body: { command: string; title: string; content: string; access_control?: AccessControl }) =>
    http.post<Prompt>(`/api/v1/prompts/command/${encodeURIComponent(command.replace(/^\//, ''))}/update`, body),
  remove: (command: string) => http.delete<true>(`/api/v1/prompts/command/${encodeURIComponent(command.replace(/^\//, ''))}/delete`),
};

/** Saves text as a file download. */
export function download(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
