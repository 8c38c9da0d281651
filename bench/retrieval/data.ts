import { offlineEmbedder } from '../../server/retrieval/embedding/embedder';
import { OFFLINE_DIMS, offlineEmbed } from '../../server/retrieval/embedding/offline-embedder';
import { CollectionIndex, type IndexInput, type IndexQuery } from '../../server/retrieval/index/collection-index';
import { pct } from '../lib/report';
import type { IrSet } from './beir';

/**
 * The data every part of the retrieval benchmark reads: a BEIR set's passages with their offline
 * vectors and its queries, and the documents, chunks, indexes and timed query runs made of them.
 */
export function benchData(set: IrSet, vectors: Float32Array[]) {
  const queries = set.queries.map((q) => q.text);
  const queryVectors = queries.map((q) => offlineEmbed(q));

  /** `count` documents of about `bytes` characters made of consecutive passages. */
  function documents(count: number, bytes = 5000, start = 0): string[] {
    const texts: string[] = [];
    let cursor = start;
    for (let d = 0; d < count; d += 1) {
      let text = '';
      while (text.length < bytes) text += `${set.corpus[cursor++ % set.corpus.length]!.text}\n\n`;
      texts.push(text.slice(0, bytes));
    }
    return texts;
  }

  /** `size` chunks cycling through the passages, 50 to a file. */
  function chunksOf(size: number): IndexInput[] {
    return Array.from({ length: size }, (_, i) => ({ id: i + 1, fileId: `f${Math.floor(i / 50)}`, text: set.corpus[i % set.corpus.length]!.text, vector: vectors[i % vectors.length]! }));
  }

  /** A collection index of {@link chunksOf} `size`. */
  function buildIndex(size: number): CollectionIndex {
    const index = CollectionIndex.empty(OFFLINE_DIMS, offlineEmbedder.model);
    const chunks = chunksOf(size);
    for (let i = 0; i < chunks.length; i += 10_000) index.add(chunks.slice(i, i + 10_000));
    return index;
  }

  /** p50 / p99 of `run`, called `repeats` times per query. */
  async function time(run: () => unknown, repeats = 3): Promise<{ p50: number; p99: number }> {
    const samples: number[] = [];
    for (let r = 0; r < repeats; r += 1) {
      for (let i = 0; i < queries.length; i += 1) {
        const started = performance.now();
        await run();
        samples.push(performance.now() - started);
      }
    }
    return { p50: pct(samples, 0.5), p99: pct(samples, 0.99) };
  }

  /** Query `k` as a top-10 search in `mode` (blend 0.5, the offline embedder's settings). */
  const ask = (k: number, mode: IndexQuery['mode']): IndexQuery => ({ text: queries[k]!, vector: queryVectors[k]!, mode, weight: 0.5, fusion: 'blend', limit: 10, fullMatchCosine: offlineEmbedder.fullMatchCosine, semanticTrust: offlineEmbedder.semanticTrust, lexicalFeedback: offlineEmbedder.lexicalFeedback });

  return { set, vectors, queries, queryVectors, documents, chunksOf, buildIndex, time, ask };
}
export type BenchData = ReturnType<typeof benchData>;
