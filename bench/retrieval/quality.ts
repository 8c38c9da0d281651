import path from 'node:path';
import { offlineEmbedder } from '../../server/retrieval/embedding/embedder';
import { OFFLINE_DIMS, offlineEmbed } from '../../server/retrieval/embedding/offline-embedder';
import { CollectionIndex, effectiveWeight, type IndexQuery } from '../../server/retrieval/index/collection-index';
import { OramaIndex } from '../lib/orama-index';
import { fmt, table, type Rows } from '../lib/report';
import { loadBeir, ndcgAt, recallAt, type IrSet } from './beir';
import type { BenchData } from './data';

/** Mean, and the 95% interval of the mean by a paired bootstrap over queries (fixed seed). */
function bootstrap(values: number[], rounds = 2000): { mean: number; sd: number; lo: number; hi: number } {
  let seed = 0x2545f491;
  const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const mean = (a: number[]) => a.reduce((x, y) => x + y, 0) / a.length;
  const means: number[] = [];
  for (let r = 0; r < rounds; r += 1) {
    let sum = 0;
    for (let i = 0; i < values.length; i += 1) sum += values[Math.floor(random() * values.length)]!;
    means.push(sum / values.length);
  }
  means.sort((a, b) => a - b);
  const m = mean(means);
  return { mean: mean(values), sd: Math.sqrt(mean(means.map((x) => (x - m) ** 2))), lo: means[Math.floor(rounds * 0.025)]!, hi: means[Math.floor(rounds * 0.975)]! };
}

/**
 * nDCG@10 / recall@10 of each mode on one BEIR set, and the paired difference of the service's
 * default hybrid against full-text and vector with its bootstrap interval (the noise: 43–50
 * queries leave ±0.01–0.03 on a mean).
 */
async function quality(data: IrSet, vectors: Float32Array[], withOrama: boolean): Promise<{ rows: Rows; noise: Rows }> {
  const chunks = data.corpus.map((doc, i) => ({ id: i + 1, fileId: doc.id, text: doc.text, vector: vectors[i]! }));
  const index = CollectionIndex.empty(OFFLINE_DIMS, offlineEmbedder.model);
  index.add(chunks);
  const trust = offlineEmbedder.semanticTrust;
  const feedback = offlineEmbedder.lexicalFeedback;
  const service = 'service (Orama + Parley components)';
  const variants: Array<[string, Omit<IndexQuery, 'text' | 'vector' | 'limit'>]> = [
    [`${service}: full-text (BM25)`, { mode: 'text', weight: 1, fusion: 'blend' }],
    [`${service}: vector (offline embedder)`, { mode: 'vector', weight: 0, fusion: 'blend' }],
    [`${service}: hybrid, default (blend, weight 0.5, offline embedder trust ${trust} → ${fmt(effectiveWeight(0.5, trust))}, feedback ${feedback})`, { mode: 'hybrid', weight: 0.5, fusion: 'blend', semanticTrust: trust, lexicalFeedback: feedback }],
    [`${service}: hybrid without lexical feedback, trust 0.25 → 0.80`, { mode: 'hybrid', weight: 0.5, fusion: 'blend', semanticTrust: 0.25 }],
    [`${service}: hybrid blend, weight 0.5 as is (a fully trusted embedder)`, { mode: 'hybrid', weight: 0.5, fusion: 'blend' }],
    [`${service}: hybrid blend, weight 0.7 as is`, { mode: 'hybrid', weight: 0.7, fusion: 'blend' }],
    [`${service}: hybrid blend, weight 0.9 as is`, { mode: 'hybrid', weight: 0.9, fusion: 'blend' }],
    [`${service}: hybrid RRF (k=10, weighted and fed back like the default)`, { mode: 'hybrid', weight: 0.5, fusion: 'rrf', semanticTrust: trust, lexicalFeedback: feedback }],
    [`${service}: hybrid RRF (k=10, 0.5/0.5)`, { mode: 'hybrid', weight: 0.5, fusion: 'rrf' }],
  ];
  const perQuery = async (rank: (q: { id: string; text: string }) => Promise<string[]> | string[]) => {
    const ndcg: number[] = [];
    const recall: number[] = [];
    for (const q of data.queries) {
      const ranked = await rank(q);
      ndcg.push(ndcgAt(ranked, data.qrels.get(q.id)!));
      recall.push(recallAt(ranked, data.qrels.get(q.id)!));
    }
    return { ndcg, recall };
  };
  const mean = (a: number[]) => a.reduce((x, y) => x + y, 0) / a.length;
  const rows: Rows = [];
  const results: Array<{ ndcg: number[]; recall: number[] }> = [];
  for (const [name, options] of variants) {
    const r = await perQuery((q) => index.search({ text: q.text, vector: offlineEmbed(q.text), limit: 10, fullMatchCosine: offlineEmbedder.fullMatchCosine, ...options }).map((h) => h.fileId));
    results.push(r);
    rows.push([name, fmt(mean(r.ndcg), 3), fmt(mean(r.recall), 3)]);
  }
  if (withOrama) {
    const orama = await OramaIndex.build(OFFLINE_DIMS, chunks);
    for (const [name, mode] of [['Orama built-in index: full-text', 'text'], ['Orama built-in index: vector (same vectors)', 'vector'], ['Orama built-in index: hybrid 0.5/0.5', 'hybrid']] as const) {
      const r = await perQuery(async (q) => (await orama.search({ text: q.text, vector: offlineEmbed(q.text), mode, weight: 0.5, limit: 10 })).map((h) => h.fileId));
      rows.push([name, fmt(mean(r.ndcg), 3), fmt(mean(r.recall), 3)]);
    }
  }
  const [text, vector, hybrid] = results as [typeof results[0], typeof results[0], typeof results[0]];
  const noise: Rows = [];
  for (const [label, other] of [['default hybrid − full-text', text], ['default hybrid − vector', vector]] as const) {
    const b = bootstrap(hybrid.ndcg.map((x, i) => x - other.ndcg[i]!));
    const verdict = b.lo > 0 ? 'better beyond noise' : b.hi < 0 ? 'WORSE beyond noise' : 'within noise';
    noise.push([label, data.queries.length, fmt(b.mean, 3), fmt(b.sd, 3), `[${fmt(b.lo, 3)}, ${fmt(b.hi, 3)}]`, verdict]);
  }
  return { rows, noise };
}


/** Part `quality`: nDCG@10 / recall@10 on each BEIR folder (the first is the bench's own set). */
export async function qualityPart(data: BenchData, folders: readonly string[], withOrama: boolean): Promise<void> {
  for (const [i, folder] of folders.entries()) {
    const set = i === 0 ? data.set : loadBeir(path.resolve(folder));
    const result = await quality(set, i === 0 ? data.vectors : set.corpus.map((d) => offlineEmbed(d.text)), withOrama);
    table(`Quality on ${path.basename(folder)} (top 10, ${set.corpus.length} passages, ${set.queries.length} queries)`, ['method', 'nDCG@10', 'recall@10'], result.rows);
    table(`Noise on ${path.basename(folder)}: paired nDCG@10 difference per query, bootstrap over queries (2,000 rounds)`, ['difference', 'queries', 'mean', 'sd', '95% interval', 'verdict'], result.noise);
  }
}
