import type { OfflineConfigUpdate, OfflineStatus } from '../../../server/contracts/offline';
import { http } from './http';

export type { OfflineStatus };

/** Offline mode (admin): whether Parley makes connections outside this computer. */
export const offlineApi = {
  status: () => http.get<OfflineStatus>('/api/v1/configs/offline'),
  update: (patch: OfflineConfigUpdate) => http.post<OfflineStatus>('/api/v1/configs/offline', patch),
};
