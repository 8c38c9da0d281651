import type { ConfigService } from '../config';
import type { FilesService } from '../files';
import type { Clock } from '../platform/clock';
import type { Db } from '../platform/db/knex';
import type { JobQueue } from '../platform/jobs';
import type { Logger } from '../platform/log';
import type { PermissionsService } from '../permissions';
import type { RealtimeHub } from '../realtime';
import { watchCollectionChanges, type Retrieval } from '../retrieval';
import { createFileLists } from './file-lists';
import { createPrepareWorker } from './ingest/worker-client';
import { createIngestion, INGEST_JOB } from './ingestion';
import { watchJobEnds } from './ingest/job-ends';
import { createKnowledgeRepo } from './knowledge.repo';
import { createKnowledgeService } from './knowledge.service';

export { knowledgeRoutes } from './knowledge.routes';
export { fileCollection, type KnowledgeService, type KnowledgeCaller, type FileRemovedHook } from './knowledge.service';
export type { FileIndexedHook, Ingestion } from './ingestion';
export { createRagStage, type RagInput, type RagResult } from './rag';

/**
 * The knowledge domain: bases and their files, background ingestion on a worker thread, and
 * access-checked search over bases and chat files. Hooks for other domains:
 * `service.onFileIndexed` / `service.onFileRemoved` (the knowledge graph), and the retrieval
 * service's `addSignal` for an extra ranking signal.
 */
export function createKnowledge(deps: {
  db: Db;
  retrieval: Retrieval;
  files: FilesService;
  permissions: PermissionsService;
  config: ConfigService;
  realtime: RealtimeHub;
  jobs: JobQueue;
  /** This instance's name (its own changes are not followed as another instance's). */
  instance?: string;
  clock: Clock;
  log: Logger;
}) {
  const worker = createPrepareWorker(deps.log);
  const repo = createKnowledgeRepo(deps.db);
  const fileLists = createFileLists((id) => repo.files(id));
  const ingestion = createIngestion({
    retrieval: deps.retrieval.service,
    repo: deps.retrieval.repo,
    files: deps.files,
    worker,
    embeddings: deps.retrieval.embeddings,
    config: deps.config,
    realtime: deps.realtime,
    jobs: deps.jobs,
    clock: deps.clock,
    log: deps.log,
    statusChanged: (job, status, error) => {
      if (job.knowledgeId !== null) fileLists.status(job.knowledgeId, job.fileId, status, error);
    },
  });
  const service = createKnowledgeService({
    repo,
    collections: deps.retrieval.repo,
    retrieval: deps.retrieval.service,
    ingestion,
    fileLists,
    files: deps.files,
    permissions: deps.permissions,
    clock: deps.clock,
    log: deps.log,
  });
  // A deleted file leaves every collection (rows cascade in SQLite; indexes are told here).
  deps.files.onFileDeleted(async (file) => {
    fileLists.removeEverywhere(file.id);
    for (const collectionId of await deps.retrieval.repo.collectionsOfFile(file.id)) await deps.retrieval.service.removeFile(collectionId, file.id);
  });
  // Several instances: a base's files added, removed or indexed by another instance are read again here.
  watchCollectionChanges(deps.db, deps.instance, (change) => {
    if (change.table === 'collection_files') fileLists.forget(change.id);
  });
  // Several instances: a caller here waiting on a file another instance indexed is released at once.
  watchJobEnds(deps.db, deps.instance, INGEST_JOB, (key) => ingestion.jobEnded(key));
  // Files in a knowledge base are kept when the chat they came with is deleted.
  deps.files.addUsageCheck((ids) => deps.retrieval.repo.inKnowledge(ids));
  return {
    service,
    ingestion,
    /** For users.beforeUserDeleted: leaves no index of the user's bases and files behind (see the service). */
    beforeUserDeleted: (userId: string) => service.beforeUserDeleted(userId),
    /** Resumes unfinished ingestion (call after start, in the background). */
    resume: () => ingestion.resume(),
    /** Stops ingestion and the worker, then saves changed indexes. */
    async stop(): Promise<void> {
      ingestion.stop();
      await worker.stop();
      await deps.retrieval.embeddings.stop();
      await deps.retrieval.service.close();
    },
  };
}
export type Knowledge = ReturnType<typeof createKnowledge>;
