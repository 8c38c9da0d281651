import type { Clock } from '../../server/platform/clock';

/** A clock tests can move forward without sleeping. */
export interface ManualClock extends Clock {
  advance(seconds: number): void;
}

/** A clock starting at the real time that only moves when told. */
export function manualClock(start = Date.now()): ManualClock {
  let ms = start;
  return {
    nowMs: () => ms,
    now: () => Math.floor(ms / 1000),
    advance: (seconds) => {
      ms += seconds * 1000;
    },
  };
}
