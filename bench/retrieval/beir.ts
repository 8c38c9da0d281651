/** Retrieval-quality helpers: BEIR-layout loading and nDCG@10 / recall@10. */
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** A BEIR data set: passages, queries and graded relevance labels. */
export interface IrSet {
  corpus: Array<{ id: string; text: string }>;
  queries: Array<{ id: string; text: string }>;
  qrels: Map<string, Map<string, number>>;
}

/** Reads corpus.jsonl, queries.jsonl (only those with labels) and qrels/test.tsv. */
export function loadBeir(dir: string): IrSet {
  const lines = (file: string) => readFileSync(path.join(dir, file), 'utf8').split('\n').filter((l) => l.trim() !== '');
  const corpus = lines('corpus.jsonl').map((l) => {
    const doc = JSON.parse(l) as { _id: string; title?: string; text: string };
    return { id: doc._id, text: doc.title ? `${doc.title}\n${doc.text}` : doc.text };
  });
  const qrels = new Map<string, Map<string, number>>();
  for (const line of lines('qrels/test.tsv')) {
    const [q, d, s] = line.split('\t');
    if (!q || !d || q === 'query-id') continue;
    if (!qrels.has(q)) qrels.set(q, new Map());
    qrels.get(q)!.set(d, Number(s));
  }
  const queries = lines('queries.jsonl')
    .map((l) => JSON.parse(l) as { _id: string; text: string })
    .filter((q) => qrels.has(q._id))
    .map((q) => ({ id: q._id, text: q.text }));
  return { corpus, queries, qrels };
}

/** nDCG@k with graded gains (2^rel − 1). */
export function ndcgAt(ranked: string[], labels: Map<string, number>, k = 10): number {
  let dcg = 0;
  ranked.slice(0, k).forEach((id, i) => {
    dcg += (2 ** (labels.get(id) ?? 0) - 1) / Math.log2(i + 2);
  });
  const ideal = [...labels.values()].sort((a, b) => b - a).slice(0, k);
  let idcg = 0;
  ideal.forEach((rel, i) => {
    idcg += (2 ** rel - 1) / Math.log2(i + 2);
  });
  return idcg === 0 ? 0 : dcg / idcg;
}

/** Share of the relevant passages found in the top k. */
export function recallAt(ranked: string[], labels: Map<string, number>, k = 10): number {
  const relevant = [...labels].filter(([, rel]) => rel > 0).map(([id]) => id);
  if (relevant.length === 0) return 0;
  const top = new Set(ranked.slice(0, k));
  return relevant.filter((id) => top.has(id)).length / relevant.length;
}
