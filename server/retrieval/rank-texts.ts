import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { ConfigService } from '../config';
import type { Logger } from '../platform/log';
import { analyzerFor, DEFAULT_LANGUAGE, detectLanguage } from './analysis/languages';
import { analyze } from './analysis/text-analysis';
import { offlineEmbedTerms } from './embedding/offline-embedder';
import type { Embedder } from './embedding/embedder';
import { CollectionIndex } from './index/collection-index';
import { splitCharacters } from './ingest/split-text';
import { RetrievalSection } from './retrieval-config';

/** A passage of one of the texts, ranked. */
export interface RankedText {
  /** Index of its text in the list given. */
  index: number;
  text: string;
  /** Relevance 0..1. */
  score: number;
}

/** Characters of one text considered (the start of a long page holds what a search found). */
const MAX_TEXT_CHARS = 30_000;
/** Chunks embedded and indexed per turn of the event loop. */
const SLICE = 64;

/**
 * Ranks passages of texts that are not stored anywhere (web pages just read) with the engine
 * collections use: the texts are cut like strategy A (the configured character sizes), analysed
 * in their language, embedded by the current embedder, and searched in a throw-away Orama index
 * with Parley's components (hybrid BM25 + vectors, the configured weight and fusion). A passage's
 * score is its best over the queries; the relevance threshold does not apply (the engine chose the
 * pages). The work is done in slices, giving the event loop back between them.
 */
export function createTextRanker(deps: { config: ConfigService; embedder: () => Promise<Embedder>; log: Logger }) {
  return async (texts: ReadonlyArray<{ text: string }>, queries: readonly string[], options: { k: number; signal?: AbortSignal }): Promise<RankedText[]> => {
    const cfg = await deps.config.get(RetrievalSection);
    const size = cfg.TEXT_SPLITTER === 'character' ? cfg.CHUNK_SIZE : 1000;
    const overlap = cfg.TEXT_SPLITTER === 'character' ? cfg.CHUNK_OVERLAP : 100;
    const chunks: Array<{ index: number; text: string }> = [];
    texts.forEach((t, index) => {
      for (const text of splitCharacters(t.text.slice(0, MAX_TEXT_CHARS), size, overlap)) chunks.push({ index, text });
    });
    if (chunks.length === 0 || queries.length === 0) return [];
    const language = detectLanguage(chunks.slice(0, 20).map((c) => c.text).join('\n').slice(0, 4000)) ?? DEFAULT_LANGUAGE;
    const embedder = await deps.embedder();
    // Each chunk is analysed once: the index takes the terms, and the offline embedder embeds from them.
    const analyzer = analyzerFor(language);
    const terms: string[][] = [];
    let vectors: Array<Float32Array | null> = [];
    try {
      for (let i = 0; i < chunks.length; i += SLICE) {
        const slice = chunks.slice(i, i + SLICE);
        const lists = slice.map((c) => analyzer(c.text));
        terms.push(...lists);
        if (embedder.offline) vectors.push(...(analyzer === analyze ? lists : slice.map((c) => analyze(c.text))).map((list) => offlineEmbedTerms(list)));
        else vectors.push(...(await embedder.embed(slice.map((c) => c.text), options.signal)));
        await yieldToLoop();
      }
    } catch (error) {
      if (options.signal?.aborted) throw error;
      deps.log.warn({ err: error }, 'embedding web passages failed; ranking them by words only');
      vectors = [];
    }
    for (let i = terms.length; i < chunks.length; i += 1) terms.push(analyzer(chunks[i]!.text));
    const dims = vectors[0]?.length ?? 0;
    const index = CollectionIndex.empty(dims, embedder.model, language);
    for (let i = 0; i < chunks.length; i += SLICE) {
      index.add(chunks.slice(i, i + SLICE).map((c, j) => ({ id: i + j + 1, fileId: String(c.index), text: c.text, vector: vectors[i + j] ?? null, terms: terms[i + j] })));
      await yieldToLoop();
    }
    const best = new Map<number, number>();
    for (const query of queries) {
      let vector: Float32Array | null = null;
      if (dims > 0) vector = (await embedder.embed([query], options.signal).catch(() => []))[0] ?? null;
      const mode = vector === null ? 'text' : cfg.ENABLE_RAG_HYBRID_SEARCH ? 'hybrid' : 'vector';
      const hits = index.search({ text: query, vector, mode, weight: cfg.HYBRID_BM25_WEIGHT, fusion: cfg.HYBRID_FUSION, limit: options.k * 3 + 10, fullMatchCosine: embedder.fullMatchCosine, semanticTrust: embedder.semanticTrust, lexicalFeedback: embedder.lexicalFeedback });
      for (const hit of hits) if ((best.get(hit.id) ?? -1) < hit.score) best.set(hit.id, hit.score);
    }
    return [...best.entries()]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, options.k)
      .map(([id, score]) => ({ index: chunks[id - 1]!.index, text: chunks[id - 1]!.text, score }));
  };
}
export type TextRanker = ReturnType<typeof createTextRanker>;
