export { createRealtimeHub, type RealtimeHub, type LiveSocket, type LiveSocketData, type SocketListener } from './realtime-hub';
export { createPostgresCluster, type PostgresCluster } from './postgres-cluster';
