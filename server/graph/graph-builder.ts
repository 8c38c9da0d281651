import type { Clock } from '../platform/clock';
import type { ClaimedJob, JobQueue } from '../platform/jobs';
import type { Logger } from '../platform/log';
import type { ChunkExtractor } from './chunk-extractor';
import type { GraphRepo } from './graph.repo';

/** Chunks read and extracted per step (a step ends with one transaction and a progress event). */
const STEP = 24;
/** The job kind of graph builds in the jobs table (key: the knowledge base). */
export const GRAPH_JOB = 'graph';
/** Builds one instance runs at once (each one base). */
const MAX_BUILDS = 4;
/** How often `settled` looks whether a build queued or running elsewhere has ended. */
const SETTLED_POLL_MS = 25;

interface Run {
  controller: AbortController;
  done: Promise<void>;
  /** New chunks arrived during the run: go round once more before saying ready. */
  again: boolean;
}

/**
 * Runs graph builds in the background, one per knowledge base at a time. A build folds every
 * chunk not yet in the graph into it, step by step, so the first build, new files and a build
 * interrupted by a restart are all the same loop. Progress is the share of the base's chunks in
 * the graph, never lowered during a run and 100 only once it is ready. Builds are jobs
 * (platform/jobs): with several instances each runs on one of them, and a build whose instance
 * died is taken over by another.
 */
export function createGraphBuilder(deps: {
  repo: GraphRepo;
  extractor: ChunkExtractor;
  jobs: JobQueue;
  clock: Clock;
  log: Logger;
  /** Called after every state change of a base's graph. */
  publish: (knowledgeId: string) => void;
}) {
  const { repo, extractor, jobs, clock, log, publish } = deps;
  const runs = new Map<string, Run>();
  let claiming: Promise<void> | undefined;
  let stopped = false;

  /** Starts claimable builds while fewer than MAX_BUILDS run here. */
  function claimNext(): void {
    if (claiming || stopped || runs.size >= MAX_BUILDS) return;
    claiming = jobs
      .claim(GRAPH_JOB, MAX_BUILDS - runs.size)
      .then(async (claimed) => {
        for (const job of claimed) {
          // Already building here (claimed again after a requeue): this run picks the new chunks up.
          const running = runs.get(job.key);
          if (running) {
            running.again = true;
            await jobs.complete([job]);
          } else start(job);
        }
      })
      .catch((error: unknown) => log.warn({ err: error }, 'claiming graph builds failed'))
      .finally(() => {
        claiming = undefined;
      });
  }

  async function loop(knowledgeId: string, run: Run): Promise<void> {
    const signal = run.controller.signal;
    const first = await repo.getState(knowledgeId);
    if (!first) return;
    let progress = first.status === 'building' ? first.progress : 0;
    const extract = await extractor.forBuild(first.user_id, signal);
    const step = (afterId: number) => {
      const work = (async () => {
        const batch = await repo.pendingChunks(knowledgeId, afterId, STEP);
        return { batch, results: batch.length > 0 ? await extract(batch) : [] };
      })();
      // Awaited in the next round; a run that ends first (stopped, failed) must not leave it unhandled.
      work.catch(() => undefined);
      return work;
    };
    // The next step's extraction (worker thread or model) overlaps with storing this one.
    let cursor = 0;
    let next = step(cursor);
    // Turning the graph off answers at once, without waiting for the step in flight.
    const aborted = new Promise<undefined>((resolve) => signal.addEventListener('abort', () => resolve(undefined), { once: true }));
    for (;;) {
      const current = await Promise.race([next, aborted]);
      if (!current || signal.aborted) return;
      const { batch, results } = current;
      if (batch.length === 0) {
        // One more pass from the start catches chunks that arrived behind the cursor.
        if (cursor === 0 && !run.again) break;
        run.again = false;
        cursor = 0;
        next = step(cursor);
        continue;
      }
      cursor = batch[batch.length - 1]!.id;
      next = step(cursor);
      await repo.storeBatch(knowledgeId, batch.map((chunk, i) => ({ chunkId: chunk.id, extraction: results[i]! })));
      const { total, done } = await repo.chunkCounts(knowledgeId);
      progress = Math.max(progress, Math.min(99, total > 0 ? Math.floor((100 * done) / total) : 99));
      if (signal.aborted) return;
      await repo.refreshSizes(knowledgeId);
      if (!(await repo.updateState(knowledgeId, { status: 'building', progress, updated_at: clock.now() }))) return;
      publish(knowledgeId);
    }
    await repo.pruneOrphans(knowledgeId);
    if (signal.aborted) return;
    const now = clock.now();
    const state = await repo.getState(knowledgeId);
    if (!state) return;
    await repo.refreshSizes(knowledgeId);
    await repo.updateState(knowledgeId, { status: 'ready', progress: 100, error: null, ready_at: state.ready_at ?? now, updated_at: now });
    publish(knowledgeId);
  }

  function start(job: ClaimedJob): void {
    const knowledgeId = job.key;
    const run: Run = { controller: new AbortController(), done: Promise.resolve(), again: false };
    run.done = loop(knowledgeId, run)
      .then(async () => {
        if (!run.controller.signal.aborted) await jobs.complete([job]);
      })
      .catch(async (error: unknown) => {
        if (run.controller.signal.aborted) return;
        const reason = error instanceof Error ? error.message : String(error);
        log.warn({ err: error, knowledgeId }, 'the knowledge graph build failed');
        try {
          if (await repo.updateState(knowledgeId, { status: 'failed', error: `The graph build failed: ${reason}`, updated_at: clock.now() })) publish(knowledgeId);
          await jobs.fail(job, `The graph build failed: ${reason}`);
        } catch (inner) {
          log.warn({ err: inner }, 'could not record the graph build failure');
        }
      })
      .finally(() => {
        if (runs.get(knowledgeId) === run) runs.delete(knowledgeId);
        // New chunks arrived after the last pass: build once more.
        if (run.again && !run.controller.signal.aborted) void enqueue(knowledgeId);
        claimNext();
      });
    runs.set(knowledgeId, run);
  }

  function enqueue(knowledgeId: string, again = true): Promise<void> {
    return jobs.enqueue(GRAPH_JOB, knowledgeId, {}, { again }).catch((error: unknown) => log.warn({ err: error, knowledgeId }, 'could not queue a graph build'));
  }

  const unwatch = jobs.watch(GRAPH_JOB, claimNext);

  return {
    /**
     * Queues a build of the base, or makes the running one pick up chunks that arrived since it
     * started (`again`: also one running on another instance; off when resuming at start).
     */
    schedule(knowledgeId: string, again = true): Promise<void> {
      const running = runs.get(knowledgeId);
      if (running) {
        running.again ||= again;
        return Promise.resolve();
      }
      return enqueue(knowledgeId, again);
    },
    /** Stops the base's build (running here, or queued), and waits until a local run has let go. */
    async stop(knowledgeId: string): Promise<void> {
      const run = runs.get(knowledgeId);
      if (run) {
        run.again = false;
        run.controller.abort();
      }
      await jobs.cancel(GRAPH_JOB, knowledgeId);
      await run?.done;
    },
    /** True while a build of the base runs here. */
    isRunning: (knowledgeId: string) => runs.has(knowledgeId),
    /** Resolves when the base's build (queued or running, here or on another instance) has ended. */
    async settled(knowledgeId: string): Promise<void> {
      for (;;) {
        await claiming;
        const run = runs.get(knowledgeId);
        if (run) {
          await run.done;
          continue;
        }
        if (stopped || (await jobs.unfinished(GRAPH_JOB, [knowledgeId])).size === 0) return;
        await new Promise((resolve) => setTimeout(resolve, SETTLED_POLL_MS));
      }
    },
    /** Stops every build here (shutdown); unfinished ones go back to the job queue. */
    async stopAll(): Promise<void> {
      stopped = true;
      unwatch();
      await claiming;
      const all = [...runs.values()];
      for (const run of all) {
        run.again = false;
        run.controller.abort();
      }
      await Promise.all(all.map((r) => r.done));
    },
  };
}
export type GraphBuilder = ReturnType<typeof createGraphBuilder>;
