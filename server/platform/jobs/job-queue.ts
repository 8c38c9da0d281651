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

/** Finished jobs are kept this long (seconds) before they are pruned (at start, then every PRUNE_EVERY_MS). */
const KEEP_FINISHED_S = 7 * 24 * 3600;
/** How often each instance prunes finished jobs while it runs (the delete is idempotent: whichever instance comes first does it). */
const PRUNE_EVERY_MS = 3600_000;
/** A running job's progress is written at most this often (the last report of a burst is written when the pause ends). */
const PROGRESS_EVERY_MS = 250;

/** What any instance reads of a job's state (see {@link JobQueue.state}). */
export interface JobState {
  status: 'queued' | 'running' | 'done' | 'failed';
  /** Running, and its instance still renews the lease (false: it died or hung; another may take it over). */
  live: boolean;
  /** The runner's last progress report (parsed), undefined before one. */
  progress: unknown;
  error: string | null;
}

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
  /** How often finished jobs are pruned while running (tests shorten it). */
  pruneEveryMs?: number;
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

  const prune = () => repo.prune(clock.now() - KEEP_FINISHED_S);
  const pruner = setInterval(() => {
    prune().catch((error: unknown) => log.warn({ err: error }, 'pruning finished background jobs failed'));
  }, deps.pruneEveryMs ?? PRUNE_EVERY_MS);
  pruner.unref();

  /** Progress not written yet (a write happened less than PROGRESS_EVERY_MS ago), and the pause of each job. */
  const unwritten = new Map<number, string>();
  const pauses = new Map<number, NodeJS.Timeout>();
  const writeProgress = (id: number, json: string) =>
    repo.setProgress(owner, id, json).catch((error: unknown) => log.debug({ err: error, jobId: id }, 'recording background job progress failed'));
  const pauseProgress = (id: number) => {
    const timer = setTimeout(() => {
      const json = unwritten.get(id);
      pauses.delete(id);
      if (json === undefined) return;
      unwritten.delete(id);
      void writeProgress(id, json);
      pauseProgress(id);
    }, PROGRESS_EVERY_MS);
    timer.unref();
    pauses.set(id, timer);
  };
  /** Writes what is left of these jobs' progress now (before they end). */
  const flushProgress = async (ids: readonly number[]) => {
    for (const id of ids) {
      clearTimeout(pauses.get(id));
      pauses.delete(id);
      const json = unwritten.get(id);
      unwritten.delete(id);
      if (json !== undefined) await writeProgress(id, json);
    }
  };

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

  /** Stops renewing, pruning and polling, and forgets the jobs held and their unwritten progress. */
  function stopTimers(): void {
    closed = true;
    clearInterval(renewer);
    clearInterval(pruner);
    for (const timer of pauses.values()) clearTimeout(timer);
    pauses.clear();
    unwritten.clear();
    if (poller) clearInterval(poller);
    held.clear();
  }

  /** Ends this instance's hold on claimed jobs (`write`: completed, or handed back), waking their runners. */
  async function letGo(jobs: readonly ClaimedJob[], write: (owner: string, ids: readonly number[], now: number) => Promise<void>): Promise<void> {
    if (jobs.length === 0) return;
    await flushProgress(jobs.map((j) => j.id));
    for (const job of jobs) held.delete(job.id);
    await write(
      owner,
      jobs.map((j) => j.id),
      clock.now(),
    );
    for (const kind of new Set(jobs.map((j) => j.kind))) wake(kind);
  }

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

    /**
     * Records work this instance does itself now, which no other instance is to take (a search
     * index rebuilt in this process): the job of this kind and key runs here under a renewed lease,
     * so its progress (starting at `progress`) and liveness are seen everywhere. End it with `complete` or `fail`.
     */
    async hold(kind: string, key: string, payload: unknown, progress?: unknown): Promise<ClaimedJob> {
      const job = await repo.hold({ kind, key, payload: JSON.stringify(payload ?? {}), progress: progress === undefined ? null : JSON.stringify(progress) }, owner, clock.nowMs() + leaseMs, clock.now());
      held.add(job.id);
      return job;
    },

    /** Reports a running job's progress (any JSON); written at most every PROGRESS_EVERY_MS, the last report always. */
    progress(job: ClaimedJob, progress: unknown): void {
      if (!held.has(job.id)) return;
      const json = JSON.stringify(progress);
      if (pauses.has(job.id)) {
        unwritten.set(job.id, json);
        return;
      }
      void writeProgress(job.id, json);
      pauseProgress(job.id);
    },

    /** The job of this kind and key as any instance sees it (undefined: never enqueued, or pruned). */
    async state(kind: string, key: string): Promise<JobState | undefined> {
      const row = await repo.find(kind, key);
      if (!row) return undefined;
      return {
        status: row.status,
        live: row.status === 'running' && Number(row.lease_until) >= clock.nowMs(),
        progress: row.progress === null ? undefined : (JSON.parse(row.progress) as unknown),
        error: row.error,
      };
    },

    /** Marks jobs done; one enqueued again while it ran is queued again (and its runners woken). */
    complete: (jobs: readonly ClaimedJob[]) => letGo(jobs, repo.complete),

    /** Marks a job failed with the reason (it does not run again until enqueued again). */
    async fail(job: ClaimedJob, reason: string): Promise<void> {
      await flushProgress([job.id]);
      held.delete(job.id);
      await repo.fail(owner, job.id, reason, clock.now());
    },

    /** Hands claimed jobs back unfinished (another run, here or elsewhere, takes them). */
    release: (jobs: readonly ClaimedJob[]) => letGo(jobs, repo.release),

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
     * a week are forgotten (and again every hour while the instance runs).
     */
    async recover(options: { alone: boolean }): Promise<void> {
      if (options.alone) {
        const requeued = await repo.requeueRunning(clock.now());
        if (requeued > 0) log.info({ jobs: requeued }, 'background jobs left unfinished by the last run are queued again');
      }
      await prune();
    },

    /** Stops renewing and polling and hands every job still held back to the queue (shutdown, after the runners stopped). */
    async close(): Promise<void> {
      stopTimers();
      await repo.release(owner, undefined, clock.now()).catch((error: unknown) => log.warn({ err: error }, 'handing background jobs back failed'));
    },

    /** Stops renewing and polling without handing anything back, as a crashed instance would (tests). */
    abandon: () => stopTimers(),
  };
}
export type JobQueue = ReturnType<typeof createJobQueue>;
