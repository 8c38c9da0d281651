import type { ConfigService } from '../config';
import type { Logger } from '../platform/log';
import { TaskConfigSection, type TaskCaller, type TaskRunner } from '../tasks';
import type { ExtractWorker } from './extract/extract-worker';
import { extractionPrompt, MODEL_BATCH, parseExtraction } from './extract/model';
import type { ChunkExtraction, ChunkInput } from './extract/types';

/** Model calls in flight at once during one build. */
const MODEL_CONCURRENCY = 3;
/** Consecutive failed model calls after which the rest of the build is extracted offline. */
const MAX_MODEL_FAILURES = 3;

/** Extracts a step's chunks, in order. */
export type ExtractFn = (chunks: readonly ChunkInput[]) => Promise<ChunkExtraction[]>;

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next;
      next += 1;
      out[i] = await fn(items[i]!);
    }
  });
  await Promise.all(lanes);
  return out;
}

/**
 * Picks how a build extracts: the task model (TASK_MODEL, else TASK_MODEL_EXTERNAL) when one is
 * configured and usable by the user who turned the graph on, batched and with bounded
 * concurrency, falling back to the offline extractor for anything the model does not answer;
 * otherwise the offline extractor on its worker thread.
 */
export function createChunkExtractor(deps: {
  worker: ExtractWorker;
  config: ConfigService;
  runner: Pick<TaskRunner, 'run'>;
  findUser: (id: string) => Promise<TaskCaller | undefined>;
  log: Logger;
}) {
  const { worker, config, runner, log } = deps;
  const offline: ExtractFn = (chunks) => worker.extract(chunks.map((c) => c.text));

  return {
    /** The extraction function for one build run. */
    async forBuild(userId: string | null, signal: AbortSignal): Promise<ExtractFn> {
      const cfg = await config.get(TaskConfigSection);
      const model = cfg.TASK_MODEL || cfg.TASK_MODEL_EXTERNAL;
      const user = model && userId ? await deps.findUser(userId) : undefined;
      if (!model || !user || user.role === 'pending') return offline;
      let failures = 0;

      async function viaModel(batch: readonly ChunkInput[]): Promise<ChunkExtraction[]> {
        if (failures >= MAX_MODEL_FAILURES) return offline(batch);
        let parsed: Array<ChunkExtraction | undefined>;
        try {
          const answer = await runner.run(user!, extractionPrompt(batch.map((c) => c.text)), { model, signal, maxTokens: 2048 });
          parsed = parseExtraction(answer, batch.length);
          failures = 0;
        } catch (error) {
          if (signal.aborted) throw error;
          failures += 1;
          log.warn({ err: error, model }, failures >= MAX_MODEL_FAILURES ? 'graph extraction by model keeps failing; extracting offline' : 'graph extraction by model failed; extracting this batch offline');
          return offline(batch);
        }
        const missing = batch.filter((_, i) => parsed[i] === undefined);
        const fallback = missing.length > 0 ? await offline(missing) : [];
        let k = 0;
        return parsed.map((p) => p ?? fallback[k++]!);
      }

      return async (chunks) => {
        const batches: ChunkInput[][] = [];
        for (let i = 0; i < chunks.length; i += MODEL_BATCH) batches.push(chunks.slice(i, i + MODEL_BATCH));
        return (await mapLimit(batches, MODEL_CONCURRENCY, viaModel)).flat();
      };
    },
  };
}
export type ChunkExtractor = ReturnType<typeof createChunkExtractor>;
