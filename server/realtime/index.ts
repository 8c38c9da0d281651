export { createRealtimeHub, type RealtimeHub } from './realtime-hub';
export { createPostgresCluster, type PostgresCluster } from './postgres-cluster';
