/** The source of "now" for services, so tests can move time without sleeping. */
export interface Clock {
  /** Current time in epoch milliseconds. */
  nowMs(): number;
  /** Current time in epoch seconds (the interface's timestamp unit). */
  now(): number;
}

/** The wall clock. */
export const systemClock: Clock = {
  nowMs: () => Date.now(),
  now: () => Math.floor(Date.now() / 1000),
};
