import type { EmbeddingConfig, EmbeddingConfigResponse, EmbeddingConfigUpdate, ReembedStatus } from '../../contracts/retrieval';
import { badRequest } from '../../platform/http/errors';
import type { Logger } from '../../platform/log';
import { createCompatProvider, createLocalProvider, type Providers } from '../../providers';
import type { CollectionIndexes } from '../collection-indexes';
import { blobOf } from '../collection-indexes';
import type { EmbeddingSettings } from '../retrieval-config';
import type { RetrievalRepo } from '../retrieval.repo';
import { offlineEmbedder, providerEmbedder, type Embedder } from './embedder';

/** Chunks re-embedded per step. */
const REEMBED_PAGE = 256;

/**
 * The current embedder (built from the embedding settings, rebuilt when they change) and the
 * background re-embedding of every stored chunk after a model change, with progress.
 */
export function createEmbeddingService(deps: {
  settings: EmbeddingSettings;
  providers: Providers;
  repo: RetrievalRepo;
  indexes: CollectionIndexes;
  log: Logger;
  /** Reports re-embedding progress (to the admin who changed the model). */
  progress?: (userId: string | undefined, status: ReembedStatus) => void;
  /** Retry tuning (tests use short back-offs). */
  attempts?: number;
  backoffMs?: number;
}) {
  const { settings, providers, repo, indexes, log } = deps;
  let current: Promise<Embedder> | undefined;
  let status: ReembedStatus = { status: 'idle', done: 0, total: 0 };
  let running: { controller: AbortController; done: Promise<void> } | undefined;

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

  async function reembed(signal: AbortSignal, userId: string | undefined): Promise<void> {
    const embedder = await service.current();
    const pending = await repo.collectionsNotOn(embedder.model);
    status = { status: 'running', done: 0, total: pending.reduce((sum, c) => sum + Number(c.n), 0) };
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

    /** The settings with keys and re-embedding progress (GET /api/v1/retrieval/embedding). */
    async get(): Promise<EmbeddingConfigResponse> {
      return { ...(await settings.get()), reembedding: status };
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

    /** (Re)starts re-embedding chunks not made by the current model. */
    startReembedding(userId?: string): void {
      running?.controller.abort();
      const controller = new AbortController();
      const previous = running?.done ?? Promise.resolve();
      const done = previous
        .then(() => reembed(controller.signal, userId))
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          status = { ...status, status: 'failed', error: error instanceof Error ? error.message : String(error) };
          deps.progress?.(userId, status);
          log.warn({ err: error }, 're-embedding failed');
        });
      running = { controller, done };
    },

    /** Resolves when the current re-embedding (if any) ends. */
    async idle(): Promise<void> {
      await running?.done;
    },

    /** Stops background work (shutdown). */
    async stop(): Promise<void> {
      running?.controller.abort();
      await running?.done;
    },
  };
  return service;
}
export type EmbeddingService = ReturnType<typeof createEmbeddingService>;
