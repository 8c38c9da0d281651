export { createOfflineMode, OfflineSection, type OfflineMode } from './offline-mode';
export { offlineRoutes } from './offline.routes';
