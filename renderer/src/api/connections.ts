import { http } from './http';

/** Direct connection flags (section 2). */
export interface ConnectionFlags {
  ENABLE_DIRECT_CONNECTIONS: boolean;
  ENABLE_BASE_MODELS_CACHE: boolean;
}

/** Per-connection options kept in *_API_CONFIGS, keyed by the entry's index. */
export interface ConnectionEntryConfig {
  enable?: boolean;
  prefix_id?: string;
  model_ids?: string[];
  tags?: string[];
  [key: string]: unknown;
}

/** OpenAI-compatible provider settings. */
export interface CompatConfig {
  ENABLE_COMPAT_API?: boolean;
  COMPAT_API_BASE_URLS: string[];
  COMPAT_API_KEYS: string[];
  COMPAT_API_CONFIGS: Record<string, ConnectionEntryConfig>;
}

/** Ollama-style provider settings. */
export interface LocalConfig {
  ENABLE_LOCAL_API?: boolean;
  LOCAL_BASE_URLS: string[];
  LOCAL_API_CONFIGS: Record<string, ConnectionEntryConfig>;
}

/** Section 4.9: provider connections. */
export const connectionsApi = {
  flags: () => http.get<ConnectionFlags>('/api/v1/configs/connections'),
  setFlags: (body: ConnectionFlags) => http.post<ConnectionFlags>('/api/v1/configs/connections', body),
  compat: () => http.get<CompatConfig>('/compat/config'),
  setCompat: (body: CompatConfig) => http.post<CompatConfig>('/compat/config/update', body),
  verifyCompat: (url: string, key: string) => http.post<{ status: boolean }>('/compat/verify', { url, key, config: {} }),
  local: () => http.get<LocalConfig>('/local/config'),
  setLocal: (body: LocalConfig) => http.post<LocalConfig>('/local/config/update', body),
  verifyLocal: (url: string, key: string) => http.post<{ status: boolean }>('/local/verify', { url, key }),
};
