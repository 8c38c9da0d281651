import type { Clock } from '../clock';
import type { Logger } from '../log';
import type { ClaimedJob, JobsRepo } from './jobs.repo';

export type { ClaimedJob } from './jobs.repo';

/** Options of {@link JobQueue.enqueue}. */
export interface EnqueueOptions {
  /** Higher is claimed first (default 0). */
  priority?: number;
  /** When the job is running now, run it once more afterwards (new work arrived for it). */
  again?: boolean;
}

/** Finished jobs are kept this long (seconds) before they are pruned at start. */
const KEEP_FINISHED_S = 7 * 24 * 3600;

/**
 * Background work shared by every instance on one database, run exactly once: a job is enqueued
 * once per key, claimed by one instance under a lease (renewed while that instance works on it),
 * then completed or failed. A job whose lease runs out (its instance died or hung) is claimable
 * again by any instance. Runners `watch` a kind: they are woken after a local enqueue and, when
 * other instances share the database (`poll`), whenever a poll finds claimable jobs of that kind.
 */
export function createJobQueue(deps: {
  repo: JobsRepo;
  /** This instance's name in `jobs.owner` (unique per process start). */
  owner: string;
  /** Lease length (ms): renewed every third of it; a job not renewed for this long is taken over. */
  leaseMs: number;
  /** Other instances may enqueue or leave jobs behind: look for claimable ones now and then. */
  poll: boolean;
  clock: Clock;
  log: Logger;
}) {
  const { repo, owner, leaseMs, clock, log } = deps;
  /** Ids this instance holds, renewed until completed, failed or released. */
  const held = new Set<number>();
  const watchers = new Map<string, Set<() => void>>();
  const tickers = new Set<() => void>();
  let closed = false;
  const pollMs = Math.max(100, Math.min(2_000, Math.floor(leaseMs / 3)));

  const wake = (kind: string) => {
    for (const fn of watchers.get(kind) ?? []) fn();
  };

  const renewer = setInterval(() => {
    if (held.size === 0) return;
    const ids = [...held];
    repo
      .renew(owner, ids, clock.nowMs() + leaseMs)
      .then((kept) => {
        for (const id of ids) {
          if (kept.has(id) || !held.has(id)) continue;
          held.delete(id);
          log.warn({ jobId: id }, 'a background job was taken over by another instance (its lease ran out)');
        }
      })
      .catch((error: unknown) => log.warn({ err: error }, 'renewing background job leases failed'));
  }, Math.max(50, Math.floor(leaseMs / 3)));
  renewer.unref();

  let polling = false;
  const poller = deps.poll
    ? setInterval(() => {
        if (polling || closed) return;
        for (const fn of tickers) fn();
        if (watchers.size === 0) return;
        polling = true;
        repo
          .claimableKinds(clock.nowMs())
          .then((kinds) => {
            for (const kind of kinds) wake(kind);
          })
          .catch((error: unknown) => log.debug({ err: error }, 'looking for background jobs failed'))
          .finally(() => (polling = false));
      }, pollMs)
    : undefined;
  poller?.unref();

  return {
    owner,
    /** How often other instances' jobs are looked for (ms). */
    pollMs,

    /** Adds (or wakes) the job of this kind and key, then wakes this instance's runners of the kind. */
    async enqueue(kind: string, key: string, payload: unknown, options: EnqueueOptions = {}): Promise<void> {
      await repo.enqueue({ kind, key, payload: JSON.stringify(payload ?? {}), priority: options.priority ?? 0, again: options.again ?? false }, clock.now());
      wake(kind);
    },

    /** Claims up to `limit` jobs of the kind for this instance (none once closed). */
    async claim(kind: string, limit: number): Promise<ClaimedJob[]> {
      if (closed || limit <= 0) return [];
      const nowMs = clock.nowMs();
      const jobs = await repo.claim([kind], owner, limit, nowMs, nowMs + leaseMs, clock.now());
      for (const job of jobs) held.add(job.id);
      return jobs;
    },

    /** Marks jobs done; one enqueued again while it ran is queued again (and its runners woken). */
    async complete(jobs: readonly ClaimedJob[]): Promise<void> {
      if (jobs.length === 0) return;
      for (const job of jobs) held.delete(job.id);
      await repo.complete(
        owner,
        jobs.map((j) => j.id),
        clock.now(),
      );
      for (const kind of new Set(jobs.map((j) => j.kind))) wake(kind);
    },

    /** Marks a job failed with the reason (it does not run again until enqueued again). */
    async fail(job: ClaimedJob, reason: string): Promise<void> {
      held.delete(job.id);
      await repo.fail(owner, job.id, reason, clock.now());
    },

    /** Hands claimed jobs back unfinished (another run, here or elsewhere, takes them). */
    async release(jobs: readonly ClaimedJob[]): Promise<void> {
      if (jobs.length === 0) return;
      for (const job of jobs) held.delete(job.id);
      await repo.release(
        owner,
        jobs.map((j) => j.id),
        clock.now(),
      );
      for (const kind of new Set(jobs.map((j) => j.kind))) wake(kind);
    },

    /** Removes the job of this kind and key (queued or running: a run in progress completes nothing). */
    cancel: (kind: string, key: string) => repo.cancel(kind, key),

    /** Of these keys, those whose job is queued or running (anywhere). */
    unfinished: (kind: string, keys: readonly string[]) => repo.unfinished(kind, keys),

    /** Calls `wake` whenever jobs of the kind may be claimable; answers a function that stops it. */
    watch(kind: string, fn: () => void): () => void {
      let set = watchers.get(kind);
      if (!set) watchers.set(kind, (set = new Set()));
      set.add(fn);
      return () => set.delete(fn);
    },

    /** Wakes every runner once (at start: jobs queued by an earlier run wait for a claim). */
    wakeAll(): void {
      for (const kind of [...watchers.keys()]) wake(kind);
    },

    /** Calls `fn` on every poll (only where other instances share the database); answers a function that stops it. */
    onPoll(fn: () => void): () => void {
      tickers.add(fn);
      return () => tickers.delete(fn);
    },

    /**
     * At start: on a database no other instance uses (SQLite), jobs left running by a crashed or
     * killed run are queued again at once instead of after their lease; finished jobs older than
     * a week are forgotten.
     */
    async recover(options: { alone: boolean }): Promise<void> {
      if (options.alone) {
        const requeued = await repo.requeueRunning(clock.now());
        if (requeued > 0) log.info({ jobs: requeued }, 'background jobs left unfinished by the last run are queued again');
      }
      await repo.prune(clock.now() - KEEP_FINISHED_S);
    },

    /** Stops renewing and polling and hands every job still held back to the queue (shutdown, after the runners stopped). */
    async close(): Promise<void> {
      closed = true;
      clearInterval(renewer);
      if (poller) clearInterval(poller);
      held.clear();
      await repo.release(owner, undefined, clock.now()).catch((error: unknown) => log.warn({ err: error }, 'handing background jobs back failed'));
    },

    /** Stops renewing and polling without handing anything back, as a crashed instance would (tests). */
    abandon(): void {
      closed = true;
      clearInterval(renewer);
      if (poller) clearInterval(poller);
      held.clear();
    },
  };
}
export type JobQueue = ReturnType<typeof createJobQueue>;
