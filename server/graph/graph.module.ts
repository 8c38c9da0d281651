import type { ConfigService } from '../config';
import type { Knowledge } from '../knowledge';
import type { Models } from '../models';
import type { Clock } from '../platform/clock';
import type { Db } from '../platform/db/knex';
import type { JobQueue } from '../platform/jobs';
import type { Logger } from '../platform/log';
import type { RealtimeHub } from '../realtime';
import { watchCollectionChanges, type Retrieval } from '../retrieval';
import { createTaskRunner, type TaskCaller } from '../tasks';
import { createChunkExtractor } from './chunk-extractor';
import { createExtractWorker } from './extract/extract-worker';
import { createGraphBuilder } from './graph-builder';
import { createGraphSignal } from './graph-signal';
import { createGraphRepo } from './graph.repo';
import { createGraphService, type KnowledgeAccess } from './graph.service';

/**
 * The knowledge graph of knowledge bases: entities and relations extracted from the chunks
 * (offline with compromise on a worker thread, or by the task model), built in the background
 * with progress, kept in step with the base's files through the knowledge hooks, and used by
 * retrieval as an extra signal through the retrieval service's `addSignal`.
 */
export function createGraph(deps: {
  db: Db;
  knowledge: Knowledge;
  retrieval: Retrieval;
  config: ConfigService;
  models: Pick<Models, 'resolveForChat'>;
  findUser: (id: string) => Promise<TaskCaller | undefined>;
  /** File names by id (for the graph view). */
  fileNames: (ids: string[]) => Promise<Map<string, string>>;
  realtime: RealtimeHub;
  jobs: JobQueue;
  /** This instance's name (its own changes are not followed as another instance's). */
  instance?: string;
  clock: Clock;
  log: Logger;
}) {
  const repo = createGraphRepo(deps.db);
  const worker = createExtractWorker(deps.log);
  const extractor = createChunkExtractor({
    worker,
    config: deps.config,
    runner: createTaskRunner({ config: deps.config, models: deps.models, log: deps.log }),
    findUser: deps.findUser,
    log: deps.log,
  });
  // The builder publishes through the service, which is made right after it (no build runs before).
  const builder = createGraphBuilder({ repo, extractor, jobs: deps.jobs, clock: deps.clock, log: deps.log, publish: (id) => graph.publish(id) });
  const access: KnowledgeAccess = (caller, id, mode) => deps.knowledge.service.access(caller, id, mode);
  const signal = createGraphSignal(repo);
  const graph = createGraphService({ repo, builder, access, fileNames: deps.fileNames, changed: (id) => signal.invalidate(id), realtime: deps.realtime, clock: deps.clock, log: deps.log });

  deps.knowledge.service.onFileIndexed((event) => graph.fileIndexed(event.knowledgeId));
  deps.knowledge.service.onFileRemoved((event) => graph.fileRemoved(event.knowledgeId));
  deps.retrieval.service.addSignal(signal.signal);
  // Several instances: a graph built, grown or turned off by another instance is read again here.
  watchCollectionChanges(deps.db, deps.instance, (change) => {
    if (change.table !== 'graph_state') return;
    signal.invalidate(change.id);
    if (change.id !== undefined) graph.relay(change.id);
  });

  return {
    service: graph,
    builder,
    /** Resumes builds left unfinished by a previous run (call after start, in the background). */
    resume: () => graph.resume(),
    /** Stops builds, open status streams and the extraction worker. */
    async stop(): Promise<void> {
      graph.closeStreams();
      await builder.stopAll();
      await worker.stop();
    },
  };
}
export type Graph = ReturnType<typeof createGraph>;
