import type { JobQueue } from '../../platform/jobs';
import type { Logger } from '../../platform/log';

/** Waiting files looked up per check to see whether another instance finished them. */
const SETTLE_CHECK_MAX = 500;

/**
 * Callers waiting for files to be indexed, by job key, until the file's job ends here or on
 * another instance. Ends elsewhere are learnt from announcements ({@link jobEnded}: PostgreSQL
 * tells which job ended, checked against the jobs table once the announcements of one moment are
 * in) and, as the fallback for announcements that never came, from the job queue's polls.
 */
export function createWaiters(deps: { jobs: Pick<JobQueue, 'unfinished' | 'onPoll'>; kind: string; log: Logger }) {
  const { jobs, kind, log } = deps;
  const waiters = new Map<string, { done: Promise<void>; resolve: () => void }>();
  let stopped = false;

  function settle(key: string): void {
    const waiter = waiters.get(key);
    if (!waiter) return;
    waiters.delete(key);
    waiter.resolve();
  }

  /** Resolves waiters whose files another instance finished (these, or the longest waiting first; a bounded number per call). */
  async function settleElsewhere(only?: Iterable<string>): Promise<void> {
    if (waiters.size === 0 || stopped) return;
    const keys = (only ? [...only].filter((key) => waiters.has(key)) : [...waiters.keys()]).slice(0, SETTLE_CHECK_MAX);
    if (keys.length === 0) return;
    const open = await jobs.unfinished(kind, keys);
    for (const key of keys) if (!open.has(key)) settle(key);
  }

  /** Jobs another instance announced ended, checked together once the announcements of one moment are in. */
  let ended = new Set<string>();
  let endedAll = false;
  let endedCheck = false;
  function checkEnded(): void {
    const keys = ended;
    const all = endedAll;
    ended = new Set();
    endedAll = false;
    endedCheck = false;
    void settleElsewhere(all ? undefined : keys).catch((error: unknown) => log.debug({ err: error }, 'checking files indexed elsewhere failed'));
  }

  const unpoll = jobs.onPoll(() => void settleElsewhere().catch((error: unknown) => log.debug({ err: error }, 'checking files indexed elsewhere failed')));

  return {
    /** A promise for the file's end (one per key, however many callers wait). */
    wait(key: string): Promise<void> {
      let waiter = waiters.get(key);
      if (!waiter) {
        let resolve!: () => void;
        const done = new Promise<void>((r) => (resolve = r));
        waiter = { done, resolve };
        waiters.set(key, waiter);
      }
      return waiter.done;
    },

    /** The file's job ended here (or could not be queued): its callers go on. */
    settle,

    /**
     * Another instance ended the job `key`, or any (no key: the announcements were interrupted):
     * its waiters here are released now, once the jobs table agrees (it may have been queued again
     * meanwhile).
     */
    jobEnded(key?: string): void {
      if (waiters.size === 0 || stopped || (key !== undefined && !waiters.has(key))) return;
      if (key === undefined) endedAll = true;
      else ended.add(key);
      if (endedCheck) return;
      endedCheck = true;
      setImmediate(checkEnded);
    },

    /** Resolves when the file of `key` is done (at once when nobody waits for it here). */
    async settled(key: string): Promise<void> {
      await waiters.get(key)?.done;
    },

    /** Resolves when nothing is waited for any more (including waits begun meanwhile). */
    async idle(): Promise<void> {
      while (waiters.size > 0) await Promise.all([...waiters.values()].map((w) => w.done));
    },

    /** Shutdown: every caller goes on, and no more checks run. */
    stop(): void {
      stopped = true;
      unpoll();
      for (const key of [...waiters.keys()]) settle(key);
    },
  };
}
export type Waiters = ReturnType<typeof createWaiters>;
