import type { Clock } from '../platform/clock';
import type { Logger } from '../platform/log';
import type { ChunkExtractor } from './chunk-extractor';
import type { GraphRepo } from './graph.repo';

/** Chunks read and extracted per step (a step ends with one transaction and a progress event). */
const STEP = 24;

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
 * the graph, never lowered during a run and 100 only once it is ready.
 */
export function createGraphBuilder(deps: {
  repo: GraphRepo;
  extractor: ChunkExtractor;
  clock: Clock;
  log: Logger;
  /** Called after every state change of a base's graph. */
  publish: (knowledgeId: string) => void;
}) {
  const { repo, extractor, clock, log, publish } = deps;
  const runs = new Map<string, Run>();

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

  function start(knowledgeId: string): void {
    const run: Run = { controller: new AbortController(), done: Promise.resolve(), again: false };
    run.done = loop(knowledgeId, run)
      .catch(async (error: unknown) => {
        if (run.controller.signal.aborted) return;
        const reason = error instanceof Error ? error.message : String(error);
        log.warn({ err: error, knowledgeId }, 'the knowledge graph build failed');
        try {
          if (await repo.updateState(knowledgeId, { status: 'failed', error: `The graph build failed: ${reason}`, updated_at: clock.now() })) publish(knowledgeId);
        } catch (inner) {
          log.warn({ err: inner }, 'could not record the graph build failure');
        }
      })
      .finally(() => {
        if (runs.get(knowledgeId) === run) runs.delete(knowledgeId);
        if (run.again && !run.controller.signal.aborted) start(knowledgeId);
      });
    runs.set(knowledgeId, run);
  }

  return {
    /** Starts a build of the base, or makes the running one pick up chunks that arrived since it started. */
    schedule(knowledgeId: string): void {
      const running = runs.get(knowledgeId);
      if (running) running.again = true;
      else start(knowledgeId);
    },
    /** Stops the base's running build, if any, and waits until it has let go. */
    async stop(knowledgeId: string): Promise<void> {
      const run = runs.get(knowledgeId);
      if (!run) return;
      run.again = false;
      run.controller.abort();
      await run.done;
    },
    /** True while a build of the base runs. */
    isRunning: (knowledgeId: string) => runs.has(knowledgeId),
    /** Resolves when the base's running build (if any) has ended. */
    async settled(knowledgeId: string): Promise<void> {
      while (runs.has(knowledgeId)) await runs.get(knowledgeId)!.done;
    },
    /** Stops every build (shutdown). */
    async stopAll(): Promise<void> {
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
