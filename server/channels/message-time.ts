import type { Clock } from '../platform/clock';

/**
 * Message times on this instance: epoch milliseconds that only grow, so messages posted within
 * one millisecond keep the order they were posted in (pages sort by time, then by id).
 */
export function createMessageClock(clock: Clock): () => number {
  let last = 0;
  return () => (last = Math.max(clock.nowMs(), last + 1));
}
