import type { EmbeddingConfig, EmbeddingConfigResponse, EmbeddingConfigUpdate, ReembedStatus } from '../../contracts/retrieval';
import { badRequest } from '../../platform/http/errors';
import type { ClaimedJob, JobQueue, JobState } from '../../platform/jobs';
import type { Logger } from '../../platform/log';
import { createCompatProvider, createLocalProvider, type Providers } from '../../providers';
import type { LoadedIndexes } from '../index/loaded-indexes';
import { blobOf } from './vector-blob';
import type { EmbeddingSettings } from '../retrieval-config';
import type { RetrievalRepo } from '../retrieval.repo';
import { offlineEmbedder, providerEmbedder, type Embedder } from './embedder';

/** Chunks re-embedded per step. */
const REEMBED_PAGE = 256;
/** The job kind of re-embedding in the jobs table (one job, key `all`: every chunk not on the current model). */
export const REEMBED_JOB = 'reembed';
const REEMBED_KEY = 'all';
/**
 * The re-embedding's progress as every instance reports it, from its job's row (written by the
 * instance running it): a queued job is about to run, a finished one shows how much its last run did.
 */
export function reembedStatusOf(state: JobState | undefined): ReembedStatus {
  if (!state) return { status: 'idle', done: 0, total: 0 };
  const { done = 0, total = 0 } = (state.progress ?? {}) as { done?: number; total?: number };
  if (state.status === 'failed') return { status: 'failed', done, total, ...(state.error ? { error: state.error } : {}) };
  if (state.status === 'done') return { status: 'idle', done, total };
  return { status: 'running', done, total };
}

/** How often `idle()` looks whether a re-embedding queued or running elsewhere has ended. */
const IDLE_POLL_MS = 25;

/**
 * The current embedder (built from the embedding settings, rebuilt when they change) and the
 * background re-embedding of every stored chunk after a model change, with progress. The
 * re-embedding is a job (platform/jobs): with several instances it runs on one of them, once,
 * and a model changed again meanwhile makes it run once more with the newest model.
 */
export function createEmbeddingService(deps: {
  settings: EmbeddingSettings;
  providers: Providers;
  repo: RetrievalRepo;
  indexes: LoadedIndexes;
  jobs: JobQueue;
  log: Logger;
  /** Reports re-embedding progress (to the admin who changed the model). */
  progress?: (userId: string | undefined, status: ReembedStatus) => void;
  /** Retry tuning (tests use short back-offs). */
  attempts?: number;
  backoffMs?: number;
}) {
  const { settings, providers, repo, indexes, jobs, log } = deps;
  let current: Promise<Embedder> | undefined;
  let status: ReembedStatus = { status: 'idle', done: 0, total: 0 };
  let running: { controller: AbortController; done: Promise<void> } | undefined;
  let starting: Promise<unknown> = Promise.resolve();
  let claiming: Promise<void> | undefined;
  let stopped = false;

  /** Runs the re-embedding job if it is claimable and none runs here. */
  function claimNext(): void {
    if (running || claiming || stopped) return;
    claiming = jobs
      .claim(REEMBED_JOB, 1)
      .then(([job]) => {
        if (job) run(job);
      })
      .catch((error: unknown) => log.warn({ err: error }, 'claiming the re-embedding failed'))
      .finally(() => (claiming = undefined));
  }

  function run(job: ClaimedJob): void {
    const { userId } = JSON.parse(job.payload) as { userId?: string };
    const controller = new AbortController();
    // The settings may have been changed on another instance since this one built its embedder.
    current = undefined;
    const done = reembed(job, controller.signal, userId)
      .then(async () => {
        // Aborted for a newer model: completing queues it again (it was enqueued again meanwhile).
        if (!stopped) await jobs.complete([job]);
      })
      .catch(async (error: unknown) => {
        if (stopped) return;
        if (controller.signal.aborted) return void (await jobs.complete([job]));
        const reason = error instanceof Error ? error.message : String(error);
        status = { ...status, status: 'failed', error: reason };
        deps.progress?.(userId, status);
        log.warn({ err: error }, 're-embedding failed');
        await jobs.fail(job, reason);
      })
      .catch((error: unknown) => log.warn({ err: error }, 'recording the re-embedding outcome failed'))
      .finally(() => {
        if (running?.done === done) running = undefined;
        claimNext();
      });
    running = { controller, done };
  }

  async function build(): Promise<Embedder> {
    const cfg = await settings.get();
    if (cfg.embedding_engine === '' || cfg.embedding_model === '') return offlineEmbedder;
    const kind = cfg.embedding_engine;
    if (kind === 'builtin') {
      // A GGUF embedding model of the built-in library, run by its runtime process.
      const builtin = (await providers.get('builtin', 0))?.provider;
      if (!builtin) throw new Error('built-in models are disabled, so the builtin embedding engine cannot run');
      return providerEmbedder({ provider: builtin, model: cfg.embedding_model, batchSize: cfg.embedding_batch_size, attempts: deps.attempts, backoffMs: deps.backoffMs });
    }
    const endpoint = kind === 'compat' ? cfg.compat_config : cfg.local_config;
    let provider;
    if (endpoint.url) provider = kind === 'compat' ? createCompatProvider({ url: endpoint.url, key: endpoint.key }) : createLocalProvider({ url: endpoint.url, key: endpoint.key });
    else provider = (await providers.get(kind, 0))?.provider;
    if (!provider) throw new Error(`no ${kind} provider is configured for embeddings`);
    return providerEmbedder({ provider, model: cfg.embedding_model, batchSize: cfg.embedding_batch_size, attempts: deps.attempts, backoffMs: deps.backoffMs });
  }

  async function reembed(job: ClaimedJob, signal: AbortSignal, userId: string | undefined): Promise<void> {
    const embedder = await service.current();
    const pending = await repo.collectionsNotOn(embedder.model);
    status = { status: 'running', done: 0, total: pending.reduce((sum, c) => sum + Number(c.n), 0) };
    // What every instance answers while it runs (the realtime events reach only the admin who changed the model).
    const report = () => jobs.progress(job, { done: status.done, total: status.total });
    report();
    if (status.total === 0) {
      status = { status: 'idle', done: 0, total: 0 };
      return;
    }
    log.info({ model: embedder.model, chunks: status.total }, 're-embedding stored chunks');
    deps.progress?.(userId, status);
    for (const { collection_id: collectionId } of pending) {
      for (;;) {
        if (signal.aborted) return;
        const page = await repo.chunksNotOn(collectionId, embedder.model, REEMBED_PAGE);
        if (page.length === 0) break;
        const vectors = await embedder.embed(
          page.map((c) => c.text),
          signal,
        );
        await repo.updateEmbeddings(
          page.map((c, i) => ({ id: c.id, embedding: blobOf(vectors[i]!) })),
          embedder.model,
        );
        status = { ...status, done: status.done + page.length };
        report();
        deps.progress?.(userId, status);
      }
      await indexes.invalidate(collectionId);
    }
    status = { status: 'idle', done: status.done, total: status.total };
    deps.progress?.(userId, status);
    log.info({ model: embedder.model }, 're-embedding finished');
  }

  const service = {
    /** The embedder in use now. */
    current(): Promise<Embedder> {
      current ??= build().catch((error: unknown) => {
        current = undefined;
        throw error;
      });
      return current;
    },

    /** The settings with keys and re-embedding progress, whichever instance runs it (GET /api/v1/retrieval/embedding). */
    async get(): Promise<EmbeddingConfigResponse> {
      await starting;
      return { ...(await settings.get()), reembedding: reembedStatusOf(await jobs.state(REEMBED_JOB, REEMBED_KEY)) };
    },

    /** Applies new settings; a changed model starts re-embedding every stored chunk in the background. */
    async update(patch: EmbeddingConfigUpdate, userId?: string): Promise<EmbeddingConfigResponse> {
      const before = await settings.get();
      const merged: EmbeddingConfig = { ...before, ...patch } as EmbeddingConfig;
      if (merged.embedding_engine !== '' && !merged.embedding_model) throw badRequest("Field 'embedding_model': is required when an embedding engine is set");
      await settings.update(patch);
      current = undefined;
      const model = (await service.current().catch(() => undefined))?.model;
      if (model !== undefined) service.startReembedding(userId);
      return service.get();
    },

    /** (Re)starts re-embedding chunks not made by the current model (a run in progress here restarts with it). */
    startReembedding(userId?: string): void {
      starting = jobs.enqueue(REEMBED_JOB, REEMBED_KEY, { userId }, { again: true }).catch((error: unknown) => log.warn({ err: error }, 'could not queue the re-embedding'));
      running?.controller.abort();
    },

    /** Drops the built embedder, so the next use reads the settings again (they changed, maybe on another instance). */
    forgetEmbedder(): void {
      current = undefined;
    },

    /** Resolves when the re-embedding (queued or running, here or on another instance) has ended. */
    async idle(): Promise<void> {
      await starting;
      for (;;) {
        await claiming;
        if (running) {
          await running.done;
          continue;
        }
        if (stopped || (await jobs.unfinished(REEMBED_JOB, [REEMBED_KEY])).size === 0) return;
        await new Promise((resolve) => setTimeout(resolve, IDLE_POLL_MS));
      }
    },

    /** Stops background work (shutdown); an unfinished re-embedding is handed back to the job queue. */
    async stop(): Promise<void> {
      stopped = true;
      unwatch();
      running?.controller.abort();
      await claiming;
      await running?.done;
    },
  };
  const unwatch = jobs.watch(REEMBED_JOB, claimNext);
  return service;
}
export type EmbeddingService = ReturnType<typeof createEmbeddingService>;
