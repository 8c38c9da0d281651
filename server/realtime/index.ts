export { createRealtimeHub, type RealtimeHub } from './realtime-hub';
