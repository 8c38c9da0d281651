import type { KnowledgeFileEvent } from '../contracts/knowledge';
import type { FilesService } from '../files';
import type { Clock } from '../platform/clock';
import type { Db } from '../platform/db/knex';
import type { Logger } from '../platform/log';
import type { PermissionsService } from '../permissions';
import type { RealtimeHub } from '../realtime';
import { watchCollectionChanges, type Retrieval } from '../retrieval';
import { createFileLists } from './file-lists';
import { createKnowledgeRepo } from './knowledge.repo';
import { createKnowledgeService } from './knowledge.service';

/**
 * The knowledge domain: bases, their access rules and file lists, and access-checked search over
 * bases and chat files. Retrieval indexes the files (`retrieval.files`) and searches them
 * (`retrieval.service`). Hooks for other domains: `service.onFileIndexed` / `service.onFileRemoved`
 * (the knowledge graph), and the retrieval service's `addSignal` for an extra ranking signal.
 */
export function createKnowledge(deps: {
  db: Db;
  retrieval: Pick<Retrieval, 'service' | 'files'>;
  files: FilesService;
  permissions: PermissionsService;
  realtime: RealtimeHub;
  /** This instance's name (its own changes are not followed as another instance's). */
  instance?: string;
  clock: Clock;
  log: Logger;
}) {
  const { retrieval } = deps;
  const repo = createKnowledgeRepo(deps.db);
  const fileLists = createFileLists((id) => repo.files(id));
  const service = createKnowledgeService({
    repo,
    collections: retrieval.files,
    retrieval: retrieval.service,
    fileLists,
    files: deps.files,
    permissions: deps.permissions,
    clock: deps.clock,
    log: deps.log,
  });
  // Each step of a file's ingestion: the base's file list follows it, and the people told about it hear it live.
  retrieval.files.onFileStatus((job, step) => {
    if (job.knowledgeId !== null) fileLists.status(job.knowledgeId, job.fileId, step.status, step.error);
    if (job.notify.length === 0) return;
    const payload: KnowledgeFileEvent = { knowledge_id: job.knowledgeId, file_id: job.fileId, status: step.status, progress: step.progress, ...(step.error !== undefined ? { error: step.error } : {}) };
    for (const userId of new Set(job.notify)) deps.realtime.emitToUser(userId, 'knowledge:file', payload);
  });
  // A deleted file leaves every base's list (retrieval takes it out of the collections).
  deps.files.onFileDeleted(async (file) => fileLists.removeEverywhere(file.id));
  // Several instances: a base's files added, removed or indexed by another instance are read again here.
  watchCollectionChanges(deps.db, deps.instance, (change) => {
    if (change.table === 'collection_files') fileLists.forget(change.id);
  });
  // Files in a knowledge base are kept when the chat they came with is deleted.
  deps.files.addUsageCheck((ids) => retrieval.files.filesInKnowledge(ids));
  return {
    service,
    /** For users.beforeUserDeleted: leaves no index of the user's bases and files behind (see the service). */
    beforeUserDeleted: (userId: string) => service.beforeUserDeleted(userId),
  };
}
export type Knowledge = ReturnType<typeof createKnowledge>;
