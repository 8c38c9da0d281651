import { components, type AnyOrama } from '@orama/orama';
import { unboxVector } from './document-components';
import { SimdVectorIndex, type RawVectors } from './simd-vector-index';
import { TextPostings } from './text-postings';

/**
 * Orama's default index component (the official extension point of `create()`) with create/
 * insert/remove/search/save/load overridden to keep the full-text property in
 * {@link TextPostings} (BM25 postings in typed arrays, real term frequencies, exact-term lookup)
 * instead of Orama's radix tree, and vector properties in {@link SimdVectorIndex} (unit vectors
 * scanned by the SIMD kernel, top-K `find`). Other properties, such as the `fileId` enum used by
 * where-filters, stay Orama's own. Orama owns the database object, document ids,
 * insert/remove/search/save/load and where-filters.
 */

/** BM25 parameters (the usual Lucene/Anserini defaults). */
const K1 = 1.2;
const B = 0.75;

/** What a Parley index component shares with the collection that owns it. */
export interface IndexControl {
  /** Candidates a full-text search returns (top K by score). */
  k: number;
  /** Terms already analysed for a document id (ingestion analyses on its worker). */
  pretokenized: Map<string, readonly string[]>;
  /** Lexical score of every document the last full-text search touched (by internal id). */
  lexical: Map<number, number>;
}

/* Orama's component signatures are loosely typed; these are the parts read here. */
type AnyIndex = ReturnType<ReturnType<typeof components.index.createIndex>['create']>;
type Entry = { type: string; node: unknown; isArray: boolean };
type Tokenizer = { tokenize(raw: string, language?: string, prop?: string, withCache?: boolean): string[] };

const PARLEY_TEXT = 'ParleyBM25';

function textEntries(index: AnyIndex): Array<[string, TextPostings]> {
  const out: Array<[string, TextPostings]> = [];
  for (const [prop, entry] of Object.entries(index.indexes as Record<string, Entry>)) if (entry.type === PARLEY_TEXT) out.push([prop, entry.node as TextPostings]);
  return out;
}

function vectorNodes(index: AnyIndex): SimdVectorIndex[] {
  return Object.values(index.vectorIndexes as Record<string, { node: unknown }>)
    .map((v) => v.node)
    .filter((n): n is SimdVectorIndex => n instanceof SimdVectorIndex);
}

/**
 * Orama's index component with Parley's structures. Full-text scores are BM25 normalised: the
 * BM25 of a document ÷ the BM25 an average-length document holding each query term once would get
 * (the sum of the query terms' idf), so 1 means "all the query's words are here". Not capped: a
 * cap would tie every chunk past that point.
 */
export function parleyIndex(control: IndexControl, textProps: readonly string[] = ['text']) {
  const base = components.index.createIndex();
  const texts = new Set(textProps);
  let scratch = new Float64Array(0);
  return {
    ...base,
    create(orama: AnyOrama, store: AnyIndex['sharedInternalDocumentStore'], schema: Parameters<typeof base.create>[2], index?: AnyIndex, prefix = '') {
      const created = (base.create as unknown as (...a: unknown[]) => AnyIndex)(orama, store, schema, index, prefix);
      for (const prop of Object.keys(created.vectorIndexes)) {
        const entry = created.vectorIndexes[prop]!;
        (entry as { node: unknown }).node = new SimdVectorIndex((entry.node as { size: number }).size);
      }
      for (const prop of texts) if (created.indexes[prop]) (created.indexes as Record<string, Entry>)[prop] = { type: PARLEY_TEXT, node: new TextPostings(), isArray: false };
      return created;
    },
    insert(...args: Parameters<typeof base.insert>) {
      const [, index, prop, id, internalId, value, , language, tokenizer] = args;
      const vectors = index.vectorIndexes as Record<string, { node: unknown } | undefined>;
      const vectorNode = vectors[prop]?.node;
      if (vectorNode instanceof SimdVectorIndex) {
        vectorNode.add(internalId as number, unboxVector(value));
        return;
      }
      const entry = (index.indexes as Record<string, Entry>)[prop];
      if (entry?.type !== PARLEY_TEXT) return base.insert(...args);
      const key = String(id);
      const terms = control.pretokenized.get(key) ?? (tokenizer as Tokenizer).tokenize(value as string, language, prop, false);
      control.pretokenized.delete(key);
      (entry.node as TextPostings).add(internalId as number, terms);
    },
    remove(...args: Parameters<typeof base.remove>) {
      const [, index, prop, , internalId] = args;
      // The slim documents store keeps no text and no vector, so Orama calls remove only for the
      // properties it kept: a removal of any of them takes the document out of every Parley node.
      for (const [, text] of textEntries(index)) text.remove(internalId as number);
      for (const node of vectorNodes(index)) node.remove(internalId as number);
      const entry = (index.indexes as Record<string, Entry>)[prop];
      if (entry?.type === PARLEY_TEXT || index.vectorIndexes[prop]) return true;
      return base.remove(...args);
    },
    search(index: AnyIndex, term: string, tokenizer: Tokenizer, language: string | undefined, props: string[], _exact: boolean, _tolerance: number, boost: Record<string, number>, _relevance: unknown, _docsCount: number, where?: Set<number>): Array<[number, number]> {
      control.lexical.clear();
      const terms = [...new Set(tokenizer.tokenize(term, language))];
      const touched: number[] = [];
      let top = 0;
      for (const prop of props) {
        const entry = (index.indexes as Record<string, Entry>)[prop];
        if (entry?.type !== PARLEY_TEXT) continue;
        const text = entry.node as TextPostings;
        if (scratch.length < text.max) scratch = new Float64Array(Math.ceil(text.max * 1.25));
        const acc = scratch;
        const n = text.count;
        if (n === 0) continue;
        const weight = boost?.[prop] ?? 1;
        const invAvg = text.totalLen > 0 ? n / text.totalLen : 1;
        const { docLen, alive } = text;
        let ideal = 0;
        const start = touched.length;
        for (const t of terms) {
          const posting = text.postings.get(t);
          const df = posting?.n ?? 0;
          const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
          ideal += idf;
          if (!posting) continue;
          for (let i = 0; i < df; i += 1) {
            const id = posting.docs[i]!;
            if (!alive[id] || (where && !where.has(id))) continue;
            const tf = posting.tfs[i]!;
            if (acc[id] === 0) touched.push(id);
            acc[id]! += (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + B * docLen[id]! * invAvg));
          }
        }
        const scale = ideal > 0 ? weight / ideal : 0;
        for (let i = start; i < touched.length; i += 1) {
          const id = touched[i]!;
          const score = acc[id]! * scale;
          acc[id] = 0;
          control.lexical.set(id, (control.lexical.get(id) ?? 0) + score);
        }
        top += 1;
      }
      if (top === 0) return [];
      return topK(control.lexical, control.k);
    },
    save(index: AnyIndex) {
      const plain = Object.fromEntries(Object.entries(index.indexes as Record<string, Entry>).filter(([, e]) => e.type !== PARLEY_TEXT));
      const saved = base.save({ ...index, indexes: plain, vectorIndexes: {} } as AnyIndex) as ReturnType<typeof base.save> & { indexes: Record<string, unknown>; vectorIndexes: Record<string, unknown> };
      for (const [prop, text] of textEntries(index)) saved.indexes[prop] = { type: PARLEY_TEXT, node: text.toJSON(), isArray: false };
      for (const [prop, entry] of Object.entries(index.vectorIndexes as unknown as Record<string, { node: SimdVectorIndex }>)) saved.vectorIndexes[prop] = entry.node.toJSON();
      return saved;
    },
    load(store: AnyIndex['sharedInternalDocumentStore'], raw: { indexes: unknown; vectorIndexes: unknown }) {
      const rawIndexes = raw.indexes as Record<string, Entry>;
      const plain = Object.fromEntries(Object.entries(rawIndexes).filter(([, e]) => e.type !== PARLEY_TEXT));
      const loaded = base.load(store, { ...raw, indexes: plain, vectorIndexes: {} } as never);
      for (const [prop, entry] of Object.entries(rawIndexes)) {
        if (entry.type === PARLEY_TEXT) (loaded.indexes as Record<string, Entry>)[prop] = { type: PARLEY_TEXT, node: TextPostings.fromJSON(entry.node as ReturnType<TextPostings['toJSON']>), isArray: false };
      }
      for (const [prop, node] of Object.entries(raw.vectorIndexes as Record<string, SimdVectorIndex | RawVectors>)) {
        (loaded.vectorIndexes as Record<string, unknown>)[prop] = { type: 'Vector', isArray: false, node: SimdVectorIndex.fromJSON(node) };
      }
      return loaded;
    },
  };
}

/** The `k` best entries, best first (ties: lower id first). */
function topK(scores: Map<number, number>, k: number): Array<[number, number]> {
  const all: Array<[number, number]> = [...scores];
  if (all.length > k * 4 && k > 0) {
    // Find the cut-off on a typed copy first, so large result sets are not sorted as pairs.
    const values = new Float64Array(all.length);
    for (let i = 0; i < all.length; i += 1) values[i] = all[i]![1];
    values.sort();
    const cut = values[values.length - k]!;
    return all
      .filter((e) => e[1] >= cut)
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, k);
  }
  return all.sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, k);
}
