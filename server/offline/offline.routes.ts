import { OfflineConfigUpdate, OfflineStatus } from '../contracts/offline';
import { route, type Routes } from '../platform/http/route';
import type { OfflineMode } from './offline-mode';

/** Admin "Offline" switch. Mounted at `/api/v1/configs/offline`. */
export function offlineRoutes(offline: OfflineMode): Routes {
  return [
    route({ method: 'get', path: '/', guard: 'admin', summary: 'Offline mode: whether Parley makes connections outside this computer', response: OfflineStatus }, () => offline.status()),
    route(
      {
        method: 'post',
        path: '/',
        guard: 'admin',
        body: OfflineConfigUpdate,
        invalid: 400,
        summary: 'Turn offline mode on or off (409 OFFLINE_FORCED while PARLEY_OFFLINE=1)',
        response: OfflineStatus,
      },
      ({ body }) => offline.update(body.enabled),
    ),
  ];
}
