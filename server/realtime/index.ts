import type { createPostgresCluster } from './postgres-cluster';

export { createRealtimeHub, type RealtimeHub, type LiveSocket, type LiveSocketData, type SocketListener } from './realtime-hub';
export type { PostgresCluster } from './postgres-cluster';

/** createPostgresCluster, loaded only when a database URL is set: pg and its socket.io adapter stay out of a SQLite start. */
export const loadPostgresCluster = async (): Promise<typeof createPostgresCluster> => (await import('./postgres-cluster')).createPostgresCluster;
