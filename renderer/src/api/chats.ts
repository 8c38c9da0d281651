import { http, uploadForm } from './http';

// Wire types of section 2 "Chat" and "Attachment file"; they move to server/contracts when the chats domain lands.

/** A chat in the sidebar list. */
export interface ChatListItem {
  id: string;
  user_id: string;
  title: string;
  created_at: number;
  updated_at: number;
  pinned?: boolean;
  archived?: boolean;
}

/** A saved message. Fields beyond role and content are optional extras the UI keeps when present. */
export interface ChatMessage {
  id?: string;
  role: 'user' | 'assistant' | 'system' | string;
  content: string;
  model?: string;
  timestamp?: number;
  files?: Array<{ type: string; id: string; name?: string }>;
  sources?: Source[];
  follow_ups?: string[];
  error?: string | null;
}

/** A whole chat. */
export interface Chat {
  id: string;
  user_id?: string;
  title: string;
  messages: ChatMessage[];
  created_at: number;
  updated_at: number;
  pinned?: boolean;
  archived?: boolean;
}

/** An uploaded attachment. */
export interface AttachmentFile {
  id: string;
  filename: string;
  size: number;
  mime_type: string;
  url: string;
}

/** A retrieval source of an answer (first frame of the stream when retrieval ran). */
export interface Source {
  source?: { id?: string; name?: string; type?: string; url?: string };
  document?: string[];
  metadata?: Array<{ source?: string; name?: string; file_id?: string; page?: number; [k: string]: unknown }>;
  distances?: number[];
}

const base = '/api/v1/chats';
const one = (id: string) => `${base}/${encodeURIComponent(id)}`;

/** Section 4.5: chats and attachments. Pin, archive and rename follow the published workspace API. */
export const chatsApi = {
  list: (page?: number) => http.get<ChatListItem[]>(base, { page, include_pinned: true }),
  create: (title: string) => http.post<ChatListItem>(`${base}/new`, { title }),
  get: (id: string) => http.get<Chat>(one(id)),
  remove: (id: string) => http.delete<true>(one(id)),
  rename: (id: string, title: string) => http.post<Chat>(one(id), { chat: { title }, title }),
  pin: (id: string) => http.post<ChatListItem>(`${one(id)}/pin`),
  archive: (id: string) => http.post<ChatListItem>(`${one(id)}/archive`),
  upload: (file: File, onProgress?: (f: number) => void, signal?: AbortSignal) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return uploadForm<AttachmentFile[]>(`${base}/attachment/upload`, form, onProgress, signal);
  },
  removeAttachment: (fileId: string) => http.delete<true>(`${base}/attachment/${encodeURIComponent(fileId)}`),
  setAttachments: (chatId: string, attachment_ids: string[]) => http.patch<{ id: string; attachments: unknown[] }>(`${one(chatId)}/attachments`, { attachment_ids }),
};
