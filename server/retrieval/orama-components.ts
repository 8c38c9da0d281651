import { components, type AnyOrama } from '@orama/orama';
import { Postings, type PackedPostings } from './postings';
import { VectorStore } from './vector-store';

/**
 * Parley's data structures as Orama 3 components (the official extension point of `create()`):
 * - {@link TextPostings}: BM25 postings of the full-text property (typed arrays, real term
 *   frequencies, exact-term lookup) instead of Orama's radix tree;
 * - {@link SimdVectorIndex}: the shape of Orama's `VectorIndex` (size, add, remove, find,
 *   toJSON, fromJSON) over unit vectors in WebAssembly memory, scanned by the SIMD kernel, with a
 *   top-K `find`;
 * - {@link parleyIndex}: Orama's default index component with create/insert/remove/search/
 *   save/load overridden to use the two above (other properties, such as the `fileId` enum used
 *   by where-filters, stay Orama's own);
 * - {@link slimDocumentsStore}: keeps only the fields results need (SQLite holds text and vectors).
 * Orama owns the database object, document ids, insert/remove/search/save/load and where-filters.
 */

/** BM25 parameters (the usual Lucene/Anserini defaults). */
const K1 = 1.2;
const B = 0.75;

/** The BM25 postings of one full-text property, keyed by Orama's internal document ids. */
export class TextPostings {
  postings = new Postings();
  docLen: Uint32Array<ArrayBufferLike> = new Uint32Array(256);
  alive: Uint8Array<ArrayBufferLike> = new Uint8Array(256);
  /** One past the highest internal id ever added. */
  max = 0;
  totalLen = 0;
  count = 0;
  /** Dead ids still in the postings (dropped when packed). */
  private dead = 0;

  private ensure(id: number): void {
    if (id < this.docLen.length) return;
    const n = Math.max(id + 1, Math.ceil(this.docLen.length * 1.5));
    const docLen = new Uint32Array(n);
    docLen.set(this.docLen);
    this.docLen = docLen;
    const alive = new Uint8Array(n);
    alive.set(this.alive);
    this.alive = alive;
  }

  add(id: number, terms: readonly string[]): void {
    this.ensure(id);
    if (this.alive[id]) this.remove(id);
    // An id used before (a document removed and inserted again): drop its old postings first.
    if (id < this.max && this.dead > 0) this.pack();
    const counts = new Map<string, number>();
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    for (const [term, tf] of counts) this.postings.append(term, id, tf);
    this.docLen[id] = terms.length;
    this.alive[id] = 1;
    this.totalLen += terms.length;
    this.count += 1;
    if (id >= this.max) this.max = id + 1;
  }

  remove(id: number): boolean {
    if (id >= this.alive.length || !this.alive[id]) return false;
    this.alive[id] = 0;
    this.totalLen -= this.docLen[id]!;
    this.count -= 1;
    this.dead += 1;
    return true;
  }

  /** Packs the postings, dropping dead ids (ids keep their numbers). */
  pack(): PackedPostings {
    const remap = new Int32Array(this.max);
    for (let id = 0; id < this.max; id += 1) remap[id] = this.alive[id] ? id : -1;
    this.dead = 0;
    return this.postings.pack(remap);
  }

  toJSON() {
    return { packed: this.pack(), docLen: this.docLen.slice(0, this.max), alive: this.alive.slice(0, this.max), max: this.max, totalLen: this.totalLen, count: this.count };
  }

  static fromJSON(raw: ReturnType<TextPostings['toJSON']>): TextPostings {
    const text = new TextPostings();
    text.postings = Postings.fromPacked(raw.packed);
    text.ensure(raw.max + 256);
    text.docLen.set(raw.docLen);
    text.alive.set(raw.alive);
    text.max = raw.max;
    text.totalLen = raw.totalLen;
    text.count = raw.count;
    return text;
  }
}

/** Raw form of a {@link SimdVectorIndex} (vectors are written to snapshots as bytes, not JSON). */
export interface RawVectors {
  size: number;
  max: number;
  alive: Uint8Array;
  vectors: Float32Array;
}

/**
 * Orama's `VectorIndex` shape over Parley's SIMD vector store. Slot = internal id − 1. Stores
 * unit vectors; `find` answers the best `k` cosines (Orama's own returns everything above a
 * similarity and sorts it all). The scores of the last scan stay readable via {@link cosineOf}.
 */
export class SimdVectorIndex {
  /** Orama reads `size` as the dimension. */
  readonly size: number;
  /** How many candidates `find` returns. */
  k = 100;
  private readonly store: VectorStore;
  private alive: Uint8Array<ArrayBufferLike> = new Uint8Array(256);
  private max = 0;
  private readonly unitQuery: Float32Array;
  private lastScores: Float32Array | null = null;

  constructor(size: number) {
    this.size = size;
    this.store = new VectorStore(size);
    this.unitQuery = new Float32Array(size);
  }

  private ensure(slots: number): void {
    this.store.ensure(slots);
    if (this.alive.length < slots) {
      const alive = new Uint8Array(Math.max(slots, this.alive.length * 2));
      alive.set(this.alive);
      this.alive = alive;
    }
  }

  private unit(value: ArrayLike<number>): Float32Array {
    let m = 0;
    for (let i = 0; i < this.size; i += 1) m += value[i]! * value[i]!;
    const inv = m > 0 ? 1 / Math.sqrt(m) : 0;
    for (let i = 0; i < this.size; i += 1) this.unitQuery[i] = value[i]! * inv;
    return this.unitQuery;
  }

  get count(): number {
    let n = 0;
    for (let s = 0; s < this.max; s += 1) n += this.alive[s]!;
    return n;
  }

  add(id: number, value: ArrayLike<number>): void {
    const slot = id - 1;
    this.ensure(slot + 1);
    this.store.set(slot, this.unit(value));
    this.alive[slot] = 1;
    if (slot >= this.max) this.max = slot + 1;
    this.lastScores = null;
  }

  remove(id: number): void {
    if (id - 1 < this.alive.length) this.alive[id - 1] = 0;
  }

  has(id: number): boolean {
    return this.alive[id - 1] === 1;
  }

  /** `[internalId, cosine][]` of the best `k` with cosine ≥ similarity (and in `filter`), unsorted. */
  find(vector: ArrayLike<number>, similarity: number, filter?: Set<number>): Array<[number, number]> {
    const scores = this.store.scan(this.unit(vector), this.max);
    this.lastScores = scores;
    const k = this.k;
    const ids = new Int32Array(k);
    const best = new Float32Array(k);
    let n = 0;
    let minAt = 0;
    let min = Infinity;
    const alive = this.alive;
    for (let s = 0; s < this.max; s += 1) {
      const v = scores[s]!;
      if (!alive[s] || v < similarity || (n === k && v <= min)) continue;
      if (filter && !filter.has(s + 1)) continue;
      if (n < k) {
        ids[n] = s + 1;
        best[n] = v;
        n += 1;
        if (n < k) continue;
      } else {
        ids[minAt] = s + 1;
        best[minAt] = v;
      }
      min = Infinity;
      for (let i = 0; i < k; i += 1) {
        if (best[i]! < min) {
          min = best[i]!;
          minAt = i;
        }
      }
    }
    const out: Array<[number, number]> = new Array(n);
    for (let i = 0; i < n; i += 1) out[i] = [ids[i]!, best[i]!];
    return out;
  }

  /** A document's unit vector (a view into the store; null without one). */
  vectorOf(id: number): Float32Array | null {
    return this.alive[id - 1] ? this.store.get(id - 1) : null;
  }

  /** Dot product of a document's unit vector with a unit vector (null without one). */
  dotWith(id: number, unit: Float32Array): number | null {
    const v = this.vectorOf(id);
    if (!v) return null;
    let s = 0;
    for (let i = 0; i < v.length; i += 1) s += v[i]! * unit[i]!;
    return s;
  }

  /** Cosine of a document with the query of the last `find` (null without a vector). */
  cosineOf(id: number): number | null {
    if (!this.lastScores || !this.alive[id - 1]) return null;
    return this.lastScores[id - 1] ?? null;
  }

  toJSON(): RawVectors {
    return { size: this.size, max: this.max, alive: this.alive.slice(0, this.max), vectors: this.store.packed(this.max) };
  }

  /** An index with room for `max` vectors and the view to read them into (restore without a copy). */
  static reserve(size: number, max: number, alive: Uint8Array): { index: SimdVectorIndex; view: Float32Array } {
    const index = new SimdVectorIndex(size);
    index.ensure(Math.max(1, max));
    index.alive.set(alive);
    index.max = max;
    return { index, view: index.store.packed(max) };
  }

  /** {@link reserve}, growing the store's memory in steps with `between` awaited after each (restores). */
  static async reserveGradually(size: number, max: number, alive: Uint8Array, between: () => Promise<void>): Promise<{ index: SimdVectorIndex; view: Float32Array }> {
    const index = new SimdVectorIndex(size);
    await index.store.reserve(Math.max(1, max), between);
    index.ensure(Math.max(1, max));
    index.alive.set(alive);
    index.max = max;
    return { index, view: index.store.packed(max) };
  }

  static fromJSON(raw: SimdVectorIndex | RawVectors): SimdVectorIndex {
    if (raw instanceof SimdVectorIndex) return raw;
    const { index, view } = SimdVectorIndex.reserve(raw.size, raw.max, raw.alive);
    view.set(raw.vectors);
    return index;
  }
}

/**
 * A Float32Array wrapped so Orama's insert accepts it as a vector (it checks `Array.isArray`,
 * pitfall 8) without copying 384 numbers into a plain array per chunk.
 */
export function boxVector(vector: Float32Array): [Float32Array] {
  return [vector];
}

/** The vector inside a {@link boxVector} box, or the plain number array Orama was given. */
function unboxVector(value: unknown): ArrayLike<number> {
  const array = value as ArrayLike<unknown>;
  return array.length === 1 && array[0] instanceof Float32Array ? array[0] : (value as ArrayLike<number>);
}

/**
 * Orama's schema validation (a `create()` component) that also accepts a {@link boxVector} box of
 * the declared size for vector properties; everything else is validated by Orama's own.
 */
export function boxedVectorValidation(vectorProps: Record<string, number>) {
  const base = components.validateSchema as (doc: Record<string, unknown>, schema: unknown) => string | undefined;
  return (doc: Record<string, unknown>, schema: unknown): string | undefined => {
    let boxed = false;
    for (const [prop, dims] of Object.entries(vectorProps)) {
      const value = doc[prop] as ArrayLike<unknown> | undefined;
      if (!Array.isArray(value) || value.length !== 1 || !(value[0] instanceof Float32Array)) continue;
      if (value[0].length !== dims) return prop;
      boxed = true;
    }
    if (!boxed) return base(doc, schema);
    const rest: Record<string, unknown> = {};
    for (const key in doc) if (!(key in vectorProps)) rest[key] = doc[key];
    return base(rest, schema);
  };
}

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

/** Orama's tokenizer component around an analyser (the same analysis for documents and queries). */
export function analyzerTokenizer(analyze: (text: string) => string[], language = 'english') {
  return {
    language,
    normalizationCache: new Map<string, string>(),
    tokenize(input: string): string[] {
      return typeof input === 'string' ? analyze(input) : [String(input)];
    },
  };
}

/** A documents store that keeps only the `keep` fields of each document. */
export function slimDocumentsStore(keep: readonly string[]) {
  const base = components.documentsStore.createDocumentsStore();
  return {
    ...base,
    store(store: Parameters<typeof base.store>[0], id: string, internalId: number, doc: Record<string, unknown>) {
      const slim: Record<string, unknown> = {};
      for (const key of keep) slim[key] = doc[key];
      return base.store(store, id, internalId, slim as never);
    },
  };
}
