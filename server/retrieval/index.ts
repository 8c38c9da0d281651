import path from 'node:path';
import type { ConfigService } from '../config';
import { dialectOf, type DatabaseLocation, type Db } from '../platform/db/knex';
import { watchTableChanges } from '../platform/db/table-changes';
import type { Clock } from '../platform/clock';
import type { JobQueue } from '../platform/jobs';
import type { Logger } from '../platform/log';
import { watchCollectionChanges } from './collection-changes';
import type { Providers } from '../providers';
import type { RealtimeHub } from '../realtime';
import type { SecretStore } from '../secrets';
import { createCollectionIndexes } from './collection-indexes';
import { createIndexBuilder } from './index-builder';
import { createEmbeddingService } from './embedding/embedding.service';
import { createEmbeddingSettings, RERANKER_KEY_SECRET } from './retrieval-config';
import { createRetrievalRepo } from './retrieval.repo';
import { createRetrievalService, REINDEX_JOB } from './retrieval.service';

export { RetrievalSection, EmbeddingSection, createRetrievalSettings, type RetrievalSettings } from './retrieval-config';
export type { RetrievalService, SearchHit, SearchOptions, RetrievalSignal, PreparedChunk, StoreItem } from './retrieval.service';
export { fileKey } from './retrieval.repo';
export { sweepSnapshotTemps } from './snapshot-temps';
export { watchCollectionChanges, type CollectionChange } from './collection-changes';
export type { EmbeddingService } from './embedding/embedding.service';
export type { RetrievalRepo, CollectionFileRow } from './retrieval.repo';
export type { Embedder } from './embedding/embedder';
export { retrievalRoutes } from './retrieval.routes';

/**
 * The retrieval domain as other domains use it: `service` stores, indexes and searches chunks
 * of collections; `embeddings` is the current embedder and its settings; `repo` the collection
 * rows (ingestion state). Indexes live in `<dataDir>/indexes/`.
 */
export function createRetrieval(deps: {
  db: Db;
  config: ConfigService;
  secrets: SecretStore;
  providers: Providers;
  realtime: RealtimeHub;
  jobs: JobQueue;
  /** This instance's name (its own changes are not followed as another instance's). */
  instance?: string;
  /** Where `indexes/` lives: the shared folder when several instances run. */
  dataDir: string;
  clock: Clock;
  log: Logger;
  /** Embedding retry back-off (ms), shorter in tests. */
  embedBackoffMs?: number;
  /**
   * Where the database lives, for the index builder thread's own connection; without it indexes
   * are rebuilt on the service's thread (in slices).
   */
  database?: DatabaseLocation;
}) {
  const repo = createRetrievalRepo(deps.db);
  const settings = createEmbeddingSettings({ config: deps.config, secrets: deps.secrets });
  const indexes = createCollectionIndexes({
    repo,
    dir: path.join(deps.dataDir, 'indexes'),
    log: deps.log,
    builder: createIndexBuilder({ database: deps.database, log: deps.log }),
    model: async () => {
      const embedder = await embeddings.current();
      return { model: embedder.model, dims: embedder.dims };
    },
  });
  const embeddings = createEmbeddingService({
    settings,
    providers: deps.providers,
    repo,
    indexes,
    jobs: deps.jobs,
    log: deps.log,
    backoffMs: deps.embedBackoffMs,
    progress: (userId, status) => {
      if (userId) deps.realtime.emitToUser(userId, 'retrieval:reembed', status);
    },
  });
  const service = createRetrievalService({
    repo,
    indexes,
    config: deps.config,
    embedder: () => embeddings.current(),
    jobs: deps.jobs,
    clock: deps.clock,
    log: deps.log,
    rerankerKey: async () => (await deps.secrets.get(RERANKER_KEY_SECRET)) || undefined,
  });
  // A re-index whose instance stopped or died has nothing left to report: whoever sees its row closes it (the index is rebuilt on next use).
  deps.jobs.watch(REINDEX_JOB, () => {
    deps.jobs
      .claim(REINDEX_JOB, 100)
      .then((stale) => deps.jobs.complete(stale))
      .catch((error: unknown) => deps.log.warn({ err: error }, 'closing abandoned re-index records failed'));
  });
  // Several instances: another one's ingestion, removal, re-embedding or language change drops the
  // collection's index here (rebuilt or restored on next use), and its new embedding settings the embedder.
  watchCollectionChanges(deps.db, deps.instance, (change) => {
    if (change.table === 'chunks') indexes.forget(change.id);
  });
  if (dialectOf(deps.db) === 'postgres') {
    watchTableChanges(deps.db, (table) => {
      if (table === 'config') embeddings.forgetEmbedder();
    });
  }
  return { repo, service, embeddings, indexes };
}
export type Retrieval = ReturnType<typeof createRetrieval>;
