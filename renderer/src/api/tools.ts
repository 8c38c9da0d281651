import { http } from './http';

// Wire types of section 2 "Tool" and "Tool server connection"; they move to server/contracts when the tools domain lands.

/** A tool list entry. */
export interface ToolListItem {
  id: string;
  name: string;
  type: string;
  description: string;
  enabled?: boolean;
  authenticated?: boolean;
  meta?: { description?: string };
  created_at?: number;
}

/** A tool with its configuration (Python source lives in config.content). */
export interface Tool {
  id: string;
  name: string;
  type: string;
  description: string;
  config: Record<string, unknown>;
  created_at?: number;
}

/** The body of tool creation. */
export interface ToolCreate {
  name: string;
  type: string;
  description: string;
  config: Record<string, unknown>;
}

export type ToolServerAuth = 'none' | 'bearer' | 'session' | 'system_oauth' | 'oauth_2.1';

/** One entry of TOOL_SERVER_CONNECTIONS. */
export interface ToolServerConnection {
  url: string;
  path: string | null;
  spec_type: string;
  spec: string | null;
  type: 'mcp' | 'openapi' | string;
  auth_type: ToolServerAuth;
  key: string | null;
  enable: boolean;
  config: { enable: boolean; [k: string]: unknown };
  info: { id: string; name: string; description?: string };
}

/** Answer of a tool server verification. */
export interface ToolServerVerify {
  status: boolean;
  specs?: Array<{ name: string; description?: string; inputSchema?: unknown }>;
}

const base = '/api/v1/tools';
const one = (id: string) => `${base}/${encodeURIComponent(id)}`;

/** Section 4.8: tools and tool servers. */
export const toolsApi = {
  list: () => http.get<ToolListItem[]>(base),
  create: (body: ToolCreate) => http.post<{ id: string; name: string; type: string; created_at: number }>(`${base}/create`, body),
  get: (id: string) => http.get<Tool>(one(id)),
  update: (id: string, config: Record<string, unknown>, extra: Partial<ToolCreate> = {}) => http.post<{ id: string; config: Record<string, unknown> }>(`${one(id)}/update`, { ...extra, config }),
  remove: (id: string) => http.delete<true>(one(id)),
  servers: () => http.get<{ TOOL_SERVER_CONNECTIONS: ToolServerConnection[] }>('/api/v1/configs/tool_servers'),
  setServers: (list: ToolServerConnection[]) => http.post<{ TOOL_SERVER_CONNECTIONS: ToolServerConnection[] }>('/api/v1/configs/tool_servers', { TOOL_SERVER_CONNECTIONS: list }),
  verifyServer: (body: { url: string; type: string; auth_type: string; key: string | null; path?: string | null }) => http.post<ToolServerVerify>('/api/v1/configs/tool_servers/verify', body),
};
