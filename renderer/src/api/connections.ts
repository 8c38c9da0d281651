import type { CompatSettings, ConnectionFlags, LocalSettings, VerifyResponse } from '../../../server/contracts/providers';
import { http } from './http';

export type { CompatSettings, ConnectionFlags, LocalSettings, VerifyResponse };

/** Section 4.9: provider connections. */
export const connectionsApi = {
  flags: () => http.get<ConnectionFlags>('/api/v1/configs/connections'),
  setFlags: (body: ConnectionFlags) => http.post<ConnectionFlags>('/api/v1/configs/connections', body),
  compat: () => http.get<CompatSettings>('/compat/config'),
  setCompat: (body: CompatSettings) => http.post<CompatSettings>('/compat/config/update', body),
  verifyCompat: (url: string, key: string) => http.post<VerifyResponse>('/compat/verify', { url, key, config: {} }),
  local: () => http.get<LocalSettings>('/local/config'),
  setLocal: (body: LocalSettings) => http.post<LocalSettings>('/local/config/update', body),
  verifyLocal: (url: string, key: string) => http.post<VerifyResponse>('/local/verify', { url, key }),
};
