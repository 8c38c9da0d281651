import type { Chat, ChatListEntry, ChatMessage, MessageSource, MessageToolStep, NewChatResponse } from '../../../server/contracts/chats';
import type { AttachmentFile, ChatAttachmentsResponse } from '../../../server/contracts/files';
import { http, uploadForm } from './http';

export type { AttachmentFile, Chat, ChatListEntry, ChatMessage, MessageToolStep };
/** A retrieval source of an answer. */
export type Source = MessageSource;

const base = '/api/v1/chats';
const one = (id: string) => `${base}/${encodeURIComponent(id)}`;

/** Section 4.5: chats, their message tree, and attachments. */
export const chatsApi = {
  list: (page?: number) => http.get<ChatListEntry[]>(base, { page, include_pinned: true, include_folders: true }),
  archived: () => http.get<ChatListEntry[]>(`${base}/archived`),
  create: (title?: string) => http.post<NewChatResponse>(`${base}/new`, title ? { title } : {}),
  get: (id: string) => http.get<Chat>(one(id)),
  remove: (id: string) => http.delete<true>(one(id)),
  rename: (id: string, title: string) => http.post<ChatListEntry>(one(id), { title }),
  pin: (id: string, pinned: boolean) => http.post<ChatListEntry>(`${one(id)}/pin`, { pinned }),
  archive: (id: string, archived: boolean) => http.post<ChatListEntry>(`${one(id)}/archive`, { archived }),
  /** Saves a changed message as a new version beside the old one (edited or continued answers). */
  editMessage: (id: string, messageId: string, content: string) => http.post<ChatMessage>(`${one(id)}/messages/${encodeURIComponent(messageId)}`, { content }),
  /** Remembers which branch is shown. */
  setCurrent: (id: string, message_id: string) => http.post<unknown>(`${one(id)}/current`, { message_id }),
  upload: (file: File, onProgress?: (f: number) => void, signal?: AbortSignal) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return uploadForm<AttachmentFile[]>(`${base}/attachment/upload`, form, onProgress, signal);
  },
  removeAttachment: (fileId: string) => http.delete<true>(`${base}/attachment/${encodeURIComponent(fileId)}`),
  setAttachments: (chatId: string, attachment_ids: string[]) => http.patch<ChatAttachmentsResponse>(`${one(chatId)}/attachments`, { attachment_ids }),
};
