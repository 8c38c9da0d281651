import path from 'node:path';
import { offlineEmbedder } from '../../server/retrieval/embedding/embedder';
import { OFFLINE_DIMS, offlineEmbed } from '../../server/retrieval/embedding/offline-embedder';
import { CollectionIndex, type IndexHit } from '../../server/retrieval/index/collection-index';
import { fmt, table, type Rows } from '../lib/report';
import { loadBeir, type IrSet } from './beir';
import type { BenchData } from './data';

/** TOP_K: passages a search keeps before the threshold. */
const TOP_K = 5;
const THRESHOLDS = [0, 0.1, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6, 0.7];
const WEIGHTS = [0.3, 0.5, 0.7];
/** How a question reaches the search: as the set writes it (keywords), or as people ask in a chat (the words around it are searched too). */
const PHRASINGS: Array<[string, (query: string) => string]> = [
  ['as written', (q) => q],
  ['in a chat sentence', (q) => `Could you please tell me, from our documents, ${q}?`],
];

/** The service's search of one collection with the offline embedder's settings: top K, each hit's relevance as the threshold sees it. */
function searcher(set: IrSet, vectors: Float32Array[], keep: (id: string) => boolean) {
  const index = CollectionIndex.empty(OFFLINE_DIMS, offlineEmbedder.model);
  index.add(set.corpus.flatMap((doc, i) => (keep(doc.id) ? [{ id: i + 1, fileId: doc.id, text: doc.text, vector: vectors[i]! }] : [])));
  return (text: string, weight: number): IndexHit[] =>
    index.search({
      text,
      vector: offlineEmbed(text),
      mode: 'hybrid',
      weight,
      fusion: 'blend',
      limit: TOP_K,
      fullMatchCosine: offlineEmbedder.fullMatchCosine,
      semanticTrust: offlineEmbedder.semanticTrust,
      lexicalFeedback: offlineEmbedder.lexicalFeedback,
    });
}

/** The questions of a set that have relevant passages, the test of relevance, and searches with and without all those passages. */
function setUp(set: IrSet, vectors: Float32Array[]) {
  const relevant = (queryId: string) => new Set([...(set.qrels.get(queryId) ?? new Map<string, number>())].filter(([, grade]) => grade > 0).map(([doc]) => doc));
  const answered = set.queries.filter((q) => relevant(q.id).size > 0);
  const allRelevant = new Set(answered.flatMap((q) => [...relevant(q.id)]));
  return { relevant, answered, withAnswers: searcher(set, vectors, () => true), withoutAnswers: searcher(set, vectors, (id) => !allRelevant.has(id)) };
}

/**
 * What RELEVANCE_THRESHOLD does with the offline embedder, per threshold and lexical weight: of the
 * questions a collection can answer, how many keep at least one relevant passage and how many get
 * nothing at all (the base skipped); the precision of what passes; and of the same questions
 * against the collection without their relevant passages (nothing there to find), how many
 * rightly get nothing.
 */
function measure(set: IrSet, vectors: Float32Array[], phrase: (query: string) => string): Rows {
  const { relevant, answered, withAnswers, withoutAnswers } = setUp(set, vectors);
  const rows: Rows = [];
  for (const weight of WEIGHTS) {
    const found = answered.map((q) => ({ q, hits: withAnswers(phrase(q.text), weight) }));
    const missing = answered.map((q) => withoutAnswers(phrase(q.text), weight));
    for (const threshold of THRESHOLDS) {
      let kept = 0;
      let keptRelevant = 0;
      let someRelevant = 0;
      let nothing = 0;
      for (const { q, hits } of found) {
        const passed = hits.filter((h) => h.score >= threshold);
        const good = passed.filter((h) => relevant(q.id).has(h.fileId)).length;
        kept += passed.length;
        keptRelevant += good;
        if (good > 0) someRelevant += 1;
        if (passed.length === 0) nothing += 1;
      }
      const silent = missing.filter((hits) => hits.every((h) => h.score < threshold)).length;
      const pct = (n: number, of: number) => `${fmt((100 * n) / of, 0)}%`;
      rows.push([weight, threshold, pct(someRelevant, answered.length), pct(nothing, answered.length), kept > 0 ? fmt(keptRelevant / kept, 2) : 'n/a', fmt(kept / answered.length, 1), pct(silent, answered.length)]);
    }
  }
  return rows;
}

/** The median and quartiles of the best relevant passage's relevance, and of the best passage's when none is relevant. */
function distribution(set: IrSet, vectors: Float32Array[], phrase: (query: string) => string): Rows {
  const { relevant, answered, withAnswers: all, withoutAnswers: none } = setUp(set, vectors);
  const quantiles = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
    return [fmt(at(0.1)), fmt(at(0.25)), fmt(at(0.5)), fmt(at(0.75)), fmt(at(0.9))];
  };
  const bestRelevant = answered.map((q) => Math.max(0, ...all(phrase(q.text), 0.5).filter((h) => relevant(q.id).has(h.fileId)).map((h) => h.score)));
  const bestUnrelated = answered.map((q) => Math.max(0, ...none(phrase(q.text), 0.5).map((h) => h.score)));
  return [
    ['best relevant passage in the top 5 (0 when none)', ...quantiles(bestRelevant)],
    ['best passage when nothing relevant is there', ...quantiles(bestUnrelated)],
  ];
}

/** Part `threshold`: how RELEVANCE_THRESHOLD and HYBRID_BM25_WEIGHT behave with the offline embedder, on each BEIR folder. */
export async function thresholdPart(data: BenchData, folders: readonly string[]): Promise<void> {
  for (const [i, folder] of folders.entries()) {
    const set = i === 0 ? data.set : loadBeir(path.resolve(folder));
    const vectors = i === 0 ? data.vectors : set.corpus.map((d) => offlineEmbed(d.text));
    for (const [phrasing, phrase] of PHRASINGS) {
      table(`Relevance of the best passages on ${path.basename(folder)}, questions ${phrasing} (offline embedder, hybrid, weight 0.5; quantiles over ${set.queries.length} queries)`, ['what', 'p10', 'p25', 'median', 'p75', 'p90'], distribution(set, vectors, phrase));
      table(
        `RELEVANCE_THRESHOLD on ${path.basename(folder)}, questions ${phrasing} (offline embedder, top ${TOP_K}): answerable questions that keep a relevant passage or get nothing; unanswerable ones (their passages removed) that rightly get nothing`,
        ['weight', 'threshold', 'keeps a relevant passage', 'gets nothing', 'precision of what passes', 'passages kept', 'unanswerable: nothing'],
        measure(set, vectors, phrase),
      );
    }
  }
}
