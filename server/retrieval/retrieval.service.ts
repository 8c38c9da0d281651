import type { ConfigService } from '../config';
import type { RetrievalConfig } from '../contracts/retrieval';
import type { Clock } from '../platform/clock';
import type { JobQueue } from '../platform/jobs';
import type { Logger } from '../platform/log';
import type { CollectionIndex } from './index/collection-index';
import { blobOf } from './embedding/vector-blob';
import type { LoadedIndexes } from './index/loaded-indexes';
import { breatherEvery } from '../platform/breather';
import type { Embedder } from './embedding/embedder';
import { isLanguage, type Language } from './analysis/languages';
import { rerank, type LocalReranker } from './reranker';
import { RetrievalSection } from './retrieval-config';
import type { PackedTerms } from './analysis/packed-terms';
import { unpackTerms } from './analysis/packed-terms';
import { fileKey, type FileChunks, type RetrievalRepo } from './retrieval.repo';

/** A chunk ready to be stored: text to search, what to return instead (parent, heading trail), and its meta as JSON text. */
export interface PreparedChunk {
  text: string;
  context: string | null;
  meta: string;
}

/** One file's chunks to store: their vectors (null where none) and, when known, their analysed terms. */
export interface StoreItem {
  collectionId: string;
  fileId: string;
  chunks: readonly PreparedChunk[];
  vectors: readonly (Float32Array | null)[];
  terms?: PackedTerms;
  /** The language `terms` were analysed in (detected from the file when the collection had none). */
  language?: string;
}

/** One retrieved passage. `score` is its relevance, 0..1. */
export interface SearchHit {
  collectionId: string;
  fileId: string;
  chunkId: number;
  /** What to show the model: the parent chunk when there is one, else the chunk. */
  text: string;
  score: number;
  lexical: number;
  semantic: number;
  meta: Record<string, unknown>;
}

/** Per-call overrides of the configured search. */
export interface SearchOptions {
  k?: number;
  threshold?: number;
  weight?: number;
  hybrid?: boolean;
  /** Skip the external reranker even when configured. */
  noRerank?: boolean;
  signal?: AbortSignal;
}

/**
 * An extra relevance signal fused into the ranking (the knowledge graph plugs in here): given the
 * query and the candidates, it scores some of them 0..1; the final relevance is
 * `(1 − weight) × hybrid + weight × signal` for the candidates it scored. It may also score
 * chunks of the searched collections that are not candidates: those join the results with the
 * signal's score as their relevance.
 */
export interface RetrievalSignal {
  name: string;
  weight: number;
  score(input: { query: string; collectionIds: readonly string[]; candidates: readonly SearchHit[] }): Promise<Map<number, number>>;
}

function parseMeta(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Characters of a query that are searched (the query endpoint's own limit): the rest of a longer
 * one (a pasted document as the question) would only cost analysis on the event loop.
 */
export const MAX_QUERY_CHARS = 10_000;

/** Work done on the service's thread between two hand-backs of the event loop while a stored batch is indexed. */
const STORE_SLICE_MS = 10;

/** The job kind recording a re-index after a language change (key: the collection; run by the instance that changed it). */
export const REINDEX_JOB = 'reindex';

/**
 * Storing, indexing and searching chunks of collections (knowledge bases and chat files), with
 * hybrid BM25 + vector ranking, the relevance threshold, an optional external reranker and
 * pluggable extra signals.
 */
export function createRetrievalService(deps: {
  repo: RetrievalRepo;
  indexes: LoadedIndexes;
  config: ConfigService;
  embedder: () => Promise<Embedder>;
  /** Where a re-index's progress is kept, so every instance reports it (kind REINDEX_JOB). */
  jobs: JobQueue;
  clock: Clock;
  log: Logger;
  rerankerKey?: () => Promise<string | undefined>;
  /** The built-in reranker (engine `builtin`): scores candidates with a library model on this computer. */
  localReranker?: LocalReranker;
}) {
  const { repo, indexes, config, jobs, clock, log } = deps;
  const signals: RetrievalSignal[] = [];

  async function queryVector(embedder: Embedder, query: string, signal?: AbortSignal): Promise<Float32Array | null> {
    try {
      return (await embedder.embed([query], signal))[0] ?? null;
    } catch (error) {
      log.warn({ err: error }, 'embedding the query failed; searching by words only');
      return null;
    }
  }

  /** Reorders `hits` with the reranker (external, or the built-in one on this computer) and keeps the best `keep`. */
  async function rerankHits(cfg: RetrievalConfig, query: string, hits: SearchHit[], keep: number): Promise<SearchHit[]> {
    try {
      const documents = hits.map((h) => h.text);
      // The built-in reranker and the external one answer alike: the best candidates with 0..1 scores.
      const results =
        cfg.RAG_RERANKING_ENGINE === 'builtin'
          ? await deps.localReranker!({ model: cfg.RAG_RERANKING_MODEL, query, documents, topN: keep })
          : await rerank({ url: cfg.RAG_EXTERNAL_RERANKER_URL, model: cfg.RAG_RERANKING_MODEL, query, documents, topN: keep, apiKey: await deps.rerankerKey?.() });
      return results.slice(0, keep).map((r) => ({ ...hits[r.index]!, score: r.relevance_score }));
    } catch (error) {
      log.warn({ err: error }, 'the reranker failed; keeping the hybrid order');
      return hits.slice(0, keep);
    }
  }

  /** Takes a file out of a loaded index; one left mostly of dead slots is rebuilt from SQLite on next use. */
  async function removeFromIndex(collectionId: string, index: CollectionIndex, fileId: string): Promise<void> {
    index.removeFile(fileId);
    if (index.wantsCompaction) await indexes.invalidate(collectionId);
    else indexes.changed(collectionId);
  }

  const service = {
    /**
     * Stores the chunks of several files (replacing older ones) in one transaction, marks them
     * completed, and adds them to the indexes in memory. Answers, per item, whether it was stored
     * (false when the file left its collection meanwhile).
     */
    async storeMany(items: readonly StoreItem[], model: string): Promise<boolean[]> {
      const files: FileChunks[] = items.map((item) => ({
        collectionId: item.collectionId,
        fileId: item.fileId,
        chunks: item.chunks.map((c, i) => ({
          seq: i,
          text: c.text,
          context: c.context,
          meta: c.meta,
          embedding: item.vectors[i] ? blobOf(item.vectors[i]!) : null,
        })),
      }));
      const stored = await repo.storeMany(files, model, clock.now());
      // The language in force per collection, asked once per call (not once per file).
      const languages = new Map<string, string>();
      for (const item of items) {
        const ids = stored.get(fileKey(item.collectionId, item.fileId));
        if (!ids) continue;
        // The first file detected in a language gives its collection that language.
        let language: string | undefined;
        if (isLanguage(item.language)) {
          language = languages.get(item.collectionId) ?? (await repo.setLanguage(item.collectionId, item.language, clock.now(), true));
          languages.set(item.collectionId, language);
        }
        const pending = indexes.peek(item.collectionId);
        if (!pending) continue;
        const index = await pending;
        const dims = item.vectors.find((v) => v)?.length;
        if (index.model !== model || (dims !== undefined && index.dims !== dims) || (language !== undefined && index.language !== language)) {
          await indexes.invalidate(item.collectionId);
          continue;
        }
        index.removeFile(item.fileId);
        // Terms analysed in another language than the index's are analysed again by the index.
        const terms = item.terms && item.language === index.language ? unpackTerms(item.terms) : undefined;
        // In slices, the event loop handed back between them: a file of thousands of chunks is stored while requests are answered.
        await index.addGradually(
          ids.map((id, i) => ({ id, fileId: item.fileId, text: item.chunks[i]!.text, vector: item.vectors[i] ?? null, terms: terms?.[i] })),
          breatherEvery(STORE_SLICE_MS),
        );
        indexes.changed(item.collectionId);
      }
      return items.map((item) => stored.has(fileKey(item.collectionId, item.fileId)));
    },

    /** Forgets a collection whose rows are gone already (a deleted user's): its index in memory and on disk. */
    async forgetCollection(collectionId: string): Promise<void> {
      await indexes.invalidate(collectionId);
    },

    /** Takes a file whose rows are gone already out of a loaded index (a saved one is stale now and rebuilt when next loaded). */
    async forgetFile(collectionId: string, fileId: string): Promise<void> {
      const pending = indexes.peek(collectionId);
      if (pending) await removeFromIndex(collectionId, await pending, fileId);
    },

    /** The analysis language a collection was given (or detected from its first file), when it has one. */
    languageOf: (collectionId: string): Promise<string | undefined> => repo.languageOf(collectionId),

    /**
     * Changes a collection's analysis language: the index is rebuilt from SQLite in that language
     * in the background (searches meanwhile wait for it); {@link reindexProgress} tells how far,
     * on every instance (the rebuild is recorded as a job this instance holds, with its progress).
     */
    async setLanguage(collectionId: string, language: Language): Promise<void> {
      await repo.setLanguage(collectionId, language, clock.now());
      await indexes.invalidate(collectionId);
      const job = await jobs.hold(REINDEX_JOB, collectionId, {}, 0);
      void indexes
        .get(collectionId, (done, total) => jobs.progress(job, total > 0 ? Math.min(1, done / total) : 1))
        .then(
          () => jobs.complete([job]),
          async (error: unknown) => {
            log.warn({ err: error, collectionId }, 'could not re-index a collection');
            await jobs.fail(job, error instanceof Error ? error.message : String(error));
          },
        )
        .catch((error: unknown) => log.warn({ err: error, collectionId }, 'recording the end of a re-index failed'));
    },

    /** Progress 0..1 of a language change's re-index (whichever instance runs it), or undefined when none runs. */
    async reindexProgress(collectionId: string): Promise<number | undefined> {
      const state = await jobs.state(REINDEX_JOB, collectionId);
      return state?.live && typeof state.progress === 'number' ? state.progress : undefined;
    },

    /** Drops a whole collection (rows cascade) and its index. */
    async dropCollection(collectionId: string): Promise<void> {
      await repo.removeCollection(collectionId);
      await indexes.invalidate(collectionId);
    },

    /** Searches collections; returns at most k passages at or above the relevance threshold, best first. */
    async search(collectionIds: readonly string[], question: string, options: SearchOptions = {}): Promise<SearchHit[]> {
      const query = question.length > MAX_QUERY_CHARS ? question.slice(0, MAX_QUERY_CHARS) : question;
      const cfg = await config.get(RetrievalSection);
      const k = options.k ?? cfg.TOP_K;
      const threshold = options.threshold ?? cfg.RELEVANCE_THRESHOLD;
      const weight = options.weight ?? cfg.HYBRID_BM25_WEIGHT;
      const hybrid = options.hybrid ?? cfg.ENABLE_RAG_HYBRID_SEARCH;
      const reranking =
        !options.noRerank &&
        ((cfg.RAG_RERANKING_ENGINE === 'external' && cfg.RAG_EXTERNAL_RERANKER_URL !== '') || (cfg.RAG_RERANKING_ENGINE === 'builtin' && cfg.RAG_RERANKING_MODEL !== '' && deps.localReranker !== undefined));
      const embedder = await deps.embedder();
      const vector = await queryVector(embedder, query, options.signal);
      const mode = vector === null ? 'text' : hybrid ? 'hybrid' : 'vector';
      // Kept after reranking: never more than top K (a setting saved before that rule is clamped here).
      const kept = Math.min(cfg.TOP_K_RERANKER, k);
      const depth = k * 3 + 10;

      const raw: Array<{ collectionId: string; id: number; fileId: string; score: number; order: number; lexical: number; semantic: number }> = [];
      for (const collectionId of new Set(collectionIds)) {
        const index = await indexes.get(collectionId);
        const usable = index.model === embedder.model ? vector : null;
        const hits = index.search({ text: query, vector: usable, mode: usable === null ? 'text' : mode, weight, fusion: cfg.HYBRID_FUSION, limit: depth, fullMatchCosine: embedder.fullMatchCosine, semanticTrust: embedder.semanticTrust, lexicalFeedback: embedder.lexicalFeedback });
        for (const hit of hits) raw.push({ collectionId, ...hit });
      }
      raw.sort((a, b) => b.order - a.order || b.score - a.score);

      const rows = new Map((await repo.chunksByIds(raw.map((r) => r.id))).map((row) => [row.id, row]));
      const seen = new Set<string>();
      let hits: SearchHit[] = [];
      for (const r of raw) {
        const row = rows.get(r.id);
        if (!row) continue;
        const meta = parseMeta(row.meta);
        // Strategy E: children are searched, parents returned once.
        const key = row.context !== null ? `${r.collectionId}\u0000${r.fileId}\u0000${row.context}` : `${r.id}`;
        if (seen.has(key)) continue;
        seen.add(key);
        hits.push({ collectionId: r.collectionId, fileId: r.fileId, chunkId: r.id, text: row.context ?? row.text, score: r.score, lexical: r.lexical, semantic: r.semantic, meta: { ...meta, seq: row.seq } });
      }

      for (const signal of signals) {
        try {
          const scores = await signal.score({ query, collectionIds, candidates: hits });
          const known = new Set(hits.map((h) => h.chunkId));
          hits = hits.map((h) => (scores.has(h.chunkId) ? { ...h, score: (1 - signal.weight) * h.score + signal.weight * scores.get(h.chunkId)! } : h));
          // Chunks the signal brought that the hybrid search did not find (graph neighbours).
          const searched = new Set(collectionIds);
          for (const row of await repo.chunksByIds([...scores.keys()].filter((id) => !known.has(id)))) {
            if (!searched.has(row.collection_id)) continue;
            const key = row.context !== null ? `${row.collection_id}\u0000${row.file_id}\u0000${row.context}` : `${row.id}`;
            if (seen.has(key)) continue;
            seen.add(key);
            hits.push({ collectionId: row.collection_id, fileId: row.file_id, chunkId: row.id, text: row.context ?? row.text, score: scores.get(row.id)!, lexical: 0, semantic: 0, meta: { ...parseMeta(row.meta), seq: row.seq, via: signal.name } });
          }
          hits.sort((a, b) => b.score - a.score);
        } catch (error) {
          log.warn({ err: error, signal: signal.name }, 'a retrieval signal failed; ignored');
        }
      }

      if (reranking) hits = await rerankHits(cfg, query, hits.slice(0, k * 2), kept);
      else hits = hits.slice(0, k);
      return hits.filter((h) => h.score >= threshold);
    },

    /** Adds an extra relevance signal (see {@link RetrievalSignal}). */
    addSignal(signal: RetrievalSignal): void {
      signals.push(signal);
    },

    /** Saves changed indexes now. */
    flush: () => indexes.flush(),

    /** At shutdown: saves changed indexes and stops the index builder. */
    close: () => indexes.close(),
  };
  return service;
}
export type RetrievalService = ReturnType<typeof createRetrievalService>;
