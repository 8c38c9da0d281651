/**
 * Keeps background work (titles, tags, follow-ups) out of the way of first tokens: requests
 * count themselves while they wait for their first token, and background jobs start only when
 * none is waiting (or after `maxWaitMs`, so they cannot starve under constant load), at most
 * `concurrency` at a time.
 */
export function createFirstTokenGate(options: { concurrency: number; maxWaitMs: number }) {
  let waiting = 0;
  let running = 0;
  let wakeUps: Array<() => void> = [];
  const queue: Array<() => void> = [];

  const wake = () => {
    const ready = wakeUps;
    wakeUps = [];
    for (const resolve of ready) resolve();
  };
  const clear = (): Promise<void> => {
    if (waiting === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, options.maxWaitMs);
      timer.unref();
      wakeUps.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  };
  const slot = async (): Promise<void> => {
    if (running < options.concurrency) {
      running += 1;
      return;
    }
    await new Promise<void>((resolve) => queue.push(resolve));
  };
  const freeSlot = () => {
    const next = queue.shift();
    if (next) next();
    else running -= 1;
  };

  return {
    /** A request starts waiting for its first token; call the returned function once it came (or the request ended). Idempotent. */
    awaitingFirstToken(): () => void {
      waiting += 1;
      let left = false;
      return () => {
        if (left) return;
        left = true;
        waiting -= 1;
        if (waiting === 0) wake();
      };
    },

    /** Runs `job` once no request waits for its first token, within the concurrency limit. */
    async background<T>(job: () => Promise<T>): Promise<T> {
      await slot();
      try {
        await clear();
        return await job();
      } finally {
        freeSlot();
      }
    },

    /** Requests now waiting for their first token (diagnostics, tests). */
    get waiting(): number {
      return waiting;
    },
  };
}
export type FirstTokenGate = ReturnType<typeof createFirstTokenGate>;
