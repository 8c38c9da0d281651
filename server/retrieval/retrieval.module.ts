import path from 'node:path';
import type { ConfigService } from '../config';
import type { FilesService } from '../files';
import { dialectOf, type DatabaseLocation, type Db } from '../platform/db/knex';
import { watchTableChanges } from '../platform/db/table-changes';
import type { Clock } from '../platform/clock';
import type { JobQueue } from '../platform/jobs';
import type { Logger } from '../platform/log';
import { followCollectionChanges, type ChangeFeed, type CollectionChange } from './collection-changes';
import type { Providers } from '../providers';
import type { RealtimeHub } from '../realtime';
import type { SecretStore } from '../secrets';
import { createLoadedIndexes } from './index/loaded-indexes';
import { createIndexBuilder } from './index/index-builder';
import { createEmbeddingService } from './embedding/embedding.service';
import { createEmbeddingSettings, RERANKER_KEY_SECRET } from './retrieval-config';
import { createRetrievalRepo } from './retrieval.repo';
import type { LocalReranker } from './reranker';
import { createRetrievalService, REINDEX_JOB } from './retrieval.service';
import { createCollectionFiles } from './collection-files';
import { createIngestion } from './ingest/ingestion';
import { followJobEnds } from './ingest/job-ends';
import { createPrepareWorker } from './ingest/prepare-worker';
import { INGEST_JOB } from './ingest/queue';
import { createTextRanker } from './rank-texts';

/** The database's change notices: PostgreSQL's (other instances' writes), none on SQLite (one instance makes every change). */
function changeFeedOf(db: Db): ChangeFeed | undefined {
  return dialectOf(db) === 'postgres' ? (listener) => watchTableChanges(db, listener) : undefined;
}

/**
 * Calls `listener` for changes other instances made to collections (see {@link followCollectionChanges}):
 * for the domains that keep something about collections (knowledge's file lists, the graph).
 */
export function watchCollectionChanges(db: Db, instance: string | undefined, listener: (change: CollectionChange) => void): void {
  followCollectionChanges(changeFeedOf(db), instance, listener);
}

/**
 * The retrieval domain as other domains use it: `files` puts files in collections and turns them
 * into searchable chunks in the background (ingestion on a worker thread); `service` searches
 * collections and keeps their indexes and languages; `embeddings` is the current embedder and its
 * settings. Indexes live in `<dataDir>/indexes/`. `repo`, `indexes` and `ingestion` are the
 * parts inside, for tests and benches.
 */
export function createRetrieval(deps: {
  db: Db;
  config: ConfigService;
  secrets: SecretStore;
  providers: Providers;
  files: FilesService;
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
  /** The built-in reranker, for the `builtin` reranking engine. */
  localReranker?: LocalReranker;
  /**
   * Where the database lives, for the index builder thread's own connection; without it indexes
   * are rebuilt on the service's thread (in slices).
   */
  database?: DatabaseLocation;
}) {
  const repo = createRetrievalRepo(deps.db);
  const settings = createEmbeddingSettings({ config: deps.config, secrets: deps.secrets });
  const indexes = createLoadedIndexes({
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
    localReranker: deps.localReranker,
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
  const feed = changeFeedOf(deps.db);
  followCollectionChanges(feed, deps.instance, (change) => {
    if (change.table === 'chunks') indexes.forget(change.id);
  });
  feed?.((table) => {
    if (table === 'config') embeddings.forgetEmbedder();
  });
  const worker = createPrepareWorker(deps.log);
  const ingestion = createIngestion({ repo, service, files: deps.files, worker, embeddings, config: deps.config, jobs: deps.jobs, clock: deps.clock, log: deps.log });
  const files = createCollectionFiles({ repo, service, ingestion, worker, files: deps.files, clock: deps.clock });
  // A deleted file leaves every collection (rows cascade in SQLite; indexes are told here).
  deps.files.onFileDeleted((file) => files.fileDeleted(file.id));
  // Several instances: a caller here waiting on a file another instance indexed is released at once.
  followJobEnds(feed, deps.instance, INGEST_JOB, (key) => ingestion.jobEnded(key));
  return {
    service,
    files,
    embeddings,
    /** Ranks passages of texts stored nowhere (web pages just read) with the hybrid engine. */
    rankTexts: createTextRanker({ config: deps.config, embedder: () => embeddings.current(), log: deps.log }),
    repo,
    indexes,
    ingestion,
    /** Resumes unfinished ingestion (call after start, in the background). */
    resume: () => ingestion.resume(),
    /** At shutdown: stops ingestion, the workers and re-embedding, then saves changed indexes. */
    async stop(): Promise<void> {
      ingestion.stop();
      await worker.stop();
      await embeddings.stop();
      await service.close();
    },
  };
}
export type Retrieval = ReturnType<typeof createRetrieval>;
