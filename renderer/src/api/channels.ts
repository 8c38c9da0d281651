import type { AccessControl } from '../../../server/contracts/access';
import type { Channel, ChannelData, ChannelMember, ChannelMessage, ChannelSearchHit, ReadPosition } from '../../../server/contracts/channels';
import type { AttachmentFile } from '../../../server/contracts/files';
import { http, uploadForm } from './http';

export type { Channel, ChannelMember, ChannelMessage, ChannelSearchHit };

const base = '/api/v1/channels';
const one = (id: string) => `${base}/${encodeURIComponent(id)}`;
const message = (id: string, messageId: string) => `${one(id)}/messages/${encodeURIComponent(messageId)}`;

/** What the channel form sends. */
export interface ChannelFormBody {
  name: string;
  description?: string | null;
  data?: ChannelData | null;
  access_control?: AccessControl;
}

/** Channels on Open WebUI's paths (and Parley's read positions, members, uploads and search). */
export const channelsApi = {
  list: () => http.get<Channel[]>(`${base}/`),
  create: (body: ChannelFormBody) => http.post<Channel>(`${base}/create`, body),
  get: (id: string) => http.get<Channel>(one(id)),
  update: (id: string, body: ChannelFormBody) => http.post<Channel>(`${one(id)}/update`, body),
  remove: (id: string) => http.delete<true>(`${one(id)}/delete`),
  members: (id: string) => http.get<ChannelMember[]>(`${one(id)}/members`),
  read: (id: string, messageId?: string) => http.post<ReadPosition>(`${one(id)}/read`, messageId ? { message_id: messageId } : {}),
  /** A page of top-level messages, newest first. */
  messages: (id: string, skip = 0, limit = 50) => http.get<ChannelMessage[]>(`${one(id)}/messages`, { skip, limit }),
  /** A thread's replies, newest first, then its first message. */
  thread: (id: string, messageId: string, skip = 0, limit = 100) => http.get<ChannelMessage[]>(`${message(id, messageId)}/thread`, { skip, limit }),
  post: (id: string, body: { content: string; parent_id?: string | null; data?: { files: Array<{ type: 'file'; id: string }> }; temp_id?: string }) =>
    http.post<ChannelMessage>(`${one(id)}/messages/post`, body),
  edit: (id: string, messageId: string, content: string) => http.post<ChannelMessage>(`${message(id, messageId)}/update`, { content }),
  delete: (id: string, messageId: string) => http.delete<true>(`${message(id, messageId)}/delete`),
  react: (id: string, messageId: string, name: string, add: boolean) => http.post<boolean>(`${message(id, messageId)}/reactions/${add ? 'add' : 'remove'}`, { name }),
  upload: (id: string, file: File, onProgress?: (f: number) => void, signal?: AbortSignal) => {
    const form = new FormData();
    form.append('files', file);
    return uploadForm<AttachmentFile[]>(`${one(id)}/files`, form, onProgress, signal);
  },
  search: (query: string) => http.get<ChannelSearchHit[]>(`${base}/search`, { query, limit: 30 }),
};
