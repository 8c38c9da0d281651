import type { OAuthAuthorizeResponse, ToolCreateRequest, ToolListEntry, ToolResponse, ToolServerAuthType, ToolServerConnection, ToolServerVerifyResponse, ToolType } from '../../../server/contracts/tools';
import { http } from './http';

export type { ToolListEntry, ToolResponse, ToolServerConnection, ToolServerVerifyResponse, ToolType };
export type ToolServerAuth = ToolServerAuthType;

/** The body of tool creation as the UI sends it. */
export type ToolCreate = Pick<ToolCreateRequest, 'name' | 'type' | 'description' | 'config'>;

const base = '/api/v1/tools';
const one = (id: string) => `${base}/${encodeURIComponent(id)}`;

/** Section 4.8: tools, tool servers and their OAuth connection. */
export const toolsApi = {
  list: () => http.get<ToolListEntry[]>(base),
  create: (body: ToolCreate) => http.post<{ id: string; name: string; type: string; created_at: number }>(`${base}/create`, body),
  get: (id: string) => http.get<ToolResponse>(one(id)),
  update: (id: string, config: Record<string, unknown>, extra: { name?: string; description?: string } = {}) => http.post<{ id: string; config: Record<string, unknown> }>(`${one(id)}/update`, { ...extra, config }),
  remove: (id: string) => http.delete<true>(one(id)),
  servers: () => http.get<{ TOOL_SERVER_CONNECTIONS: ToolServerConnection[] }>('/api/v1/configs/tool_servers'),
  setServers: (list: ToolServerConnection[]) => http.post<{ TOOL_SERVER_CONNECTIONS: ToolServerConnection[] }>('/api/v1/configs/tool_servers', { TOOL_SERVER_CONNECTIONS: list }),
  verifyServer: (body: { url: string; type: string; auth_type: string; key: string | null; path?: string | null; info?: { id?: string } }) => http.post<ToolServerVerifyResponse>('/api/v1/configs/tool_servers/verify', body),
  /** Starts (or confirms) the OAuth 2.1 connection of the caller to an MCP server. */
  authorize: (serverId: string) => http.post<OAuthAuthorizeResponse>(`${base}/oauth/${encodeURIComponent(serverId)}/authorize`),
  disconnect: (serverId: string) => http.delete<unknown>(`${base}/oauth/${encodeURIComponent(serverId)}`),
};
