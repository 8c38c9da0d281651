import { create, insert, remove, search, type AnyOrama } from '@orama/orama';
import { analyzerFor, DEFAULT_LANGUAGE, type Language } from '../analysis/languages';
import { bounded, effectiveWeight } from '../index/collection-index';
import { analyzerTokenizer, boxedVectorValidation, boxVector, slimDocumentsStore } from '../index/document-components';
import { parleyIndex, type IndexControl } from '../index/parley-index';
import { SimdVectorIndex } from '../index/simd-vector-index';
import { TextPostings } from '../index/text-postings';

/** One record as an index receives it: a key of the owner's choosing, its text, optionally a vector and access tags. */
export interface RecordInput {
  key: string;
  text: string;
  /** Unit-length embedding of `dims` numbers (ignored when the index has none, or the size differs). */
  vector?: Float32Array | null;
  /** Who may find it (`u:<user id>`, `g:<group id>`, `public`…); a query with `anyTag` sees only records holding one of them. */
  tags?: readonly string[];
}

/** A query: BM25 over the text, blended with cosine when both sides have vectors (as knowledge search blends them). */
export interface RecordQuery {
  text: string;
  vector?: Float32Array | null;
  /** Lexical weight of the blend (HYBRID_BM25_WEIGHT); default 0.5. */
  weight?: number;
  /** How far the embedder is trusted next to BM25 (see `effectiveWeight`); default 1. */
  semanticTrust?: number;
  /** Cosine at which the embedder's match counts as full; default 1. */
  fullMatchCosine?: number;
  limit: number;
  /** Only records holding at least one of these tags. */
  anyTag?: readonly string[];
}

/** A found record: its key, relevance and the two signals behind it (0..1, see `bounded`). */
export interface RecordHit {
  key: string;
  score: number;
  lexical: number;
  semantic: number;
}

type OramaHits = { hits: Array<{ id: string; score: number }> };

/**
 * A small in-memory search index over keyed records (notes, a person's memories), on Orama with
 * Parley's components: the BM25 postings and SIMD vector scan of the collection index, the
 * analyser of one language as tokenizer, and an `enum[]` of access tags that where-filters read.
 * Records are replaced whole by key. Orama never reuses internal ids, so an index that saw many
 * replacements says so (`wantsCompaction`) and its owner builds a fresh one.
 */
export class RecordIndex {
  readonly dims: number;
  readonly language: Language;
  private readonly db: AnyOrama;
  private readonly control: IndexControl;
  /** The Orama document id of each key: a new one on every put, since Orama keeps an id's internal slot after removal. */
  private readonly docOf = new Map<string, string>();
  private readonly keyOf = new Map<string, string>();
  private slots = 0;
  /** How many records matched the words of the last search (before `limit`): a search result's total. */
  lastMatches = 0;
  /** Records removed since the postings were last packed (they still count in term frequencies until then). */
  private unpacked = 0;

  private constructor(dims: number, language: Language) {
    this.dims = dims;
    this.language = language;
    this.control = { k: 100, pretokenized: new Map(), lexical: new Map() };
    const schema = dims > 0 ? { text: 'string', key: 'enum', tags: 'enum[]', embedding: `vector[${dims}]` } : { text: 'string', key: 'enum', tags: 'enum[]' };
    this.db = create({
      schema,
      sort: { enabled: false },
      components: {
        validateSchema: boxedVectorValidation(dims > 0 ? { embedding: dims } : {}),
        tokenizer: analyzerTokenizer(analyzerFor(language), language),
        index: parleyIndex(this.control),
        // The key must stay: Orama removes a document through the properties its store kept.
        documentsStore: slimDocumentsStore(['key', 'tags']),
      },
    } as never) as AnyOrama;
  }

  /** An empty index; `dims` 0 for text only. */
  static create(options: { dims?: number; language?: Language } = {}): RecordIndex {
    return new RecordIndex(options.dims ?? 0, options.language ?? DEFAULT_LANGUAGE);
  }

  /** Records in the index. */
  get size(): number {
    return this.docOf.size;
  }

  has(key: string): boolean {
    return this.docOf.has(key);
  }

  /** True when replaced and removed records hold more slots than live ones (rebuild it). */
  get wantsCompaction(): boolean {
    return this.slots > 256 && this.slots - this.docOf.size > this.docOf.size;
  }

  /** Adds a record, replacing the one with the same key. */
  put(record: RecordInput): void {
    if (this.docOf.has(record.key)) this.delete(record.key);
    const withVector = this.dims > 0 && record.vector !== null && record.vector !== undefined && record.vector.length === this.dims;
    this.slots += 1;
    const id = String(this.slots);
    const doc = { id, key: record.key, text: record.text, tags: [...(record.tags ?? [])], ...(withVector ? { embedding: boxVector(record.vector!) } : {}) };
    insert(this.db, doc as never);
    this.docOf.set(record.key, id);
    this.keyOf.set(id, record.key);
  }

  /** Removes a record; false when there was none. */
  delete(key: string): boolean {
    const id = this.docOf.get(key);
    if (id === undefined) return false;
    void remove(this.db, id);
    this.unpacked += 1;
    this.docOf.delete(key);
    this.keyOf.delete(id);
    return true;
  }

  private vectorNode(): SimdVectorIndex | undefined {
    const node = (this.db.data.index.vectorIndexes as Record<string, { node: unknown } | undefined>).embedding?.node;
    return node instanceof SimdVectorIndex ? node : undefined;
  }

  /**
   * Drops removed records from the postings before a search: BM25 counts a term's documents, and
   * a note saved a hundred times would otherwise count a hundred times. Packing costs one pass
   * over the postings, once per search after changes (a burst of saves packs once).
   */
  private packRemoved(): void {
    if (this.unpacked === 0) return;
    const node = ((this.db.data.index as unknown as { indexes: Record<string, { node: unknown } | undefined> }).indexes).text?.node;
    if (node instanceof TextPostings) node.pack();
    this.unpacked = 0;
  }

  private internalIdOf(id: string): number {
    return (this.db.internalDocumentIDStore.idToInternalId as Map<string, number>).get(id)!;
  }

  /** The best records for a query, best first (at most `limit`). */
  search(query: RecordQuery): RecordHit[] {
    this.lastMatches = 0;
    if (this.docOf.size === 0 || query.limit <= 0) return [];
    if (query.anyTag && query.anyTag.length === 0) return [];
    const limit = Math.min(query.limit, this.docOf.size);
    this.packRemoved();
    const node = this.vectorNode();
    const useVector = query.vector !== null && query.vector !== undefined && node !== undefined && query.vector.length === this.dims;
    const depth = useVector ? Math.max(limit * 4, 100) : limit;
    this.control.k = depth;
    const where = query.anyTag ? { tags: { containsAny: [...query.anyTag] } } : undefined;
    const candidates = new Set<number>();
    const keyOf = new Map<number, string>();
    const text = search(this.db, { term: query.text, properties: ['text'], limit: depth, ...(where ? { where } : {}) } as never) as unknown as OramaHits;
    for (const hit of text.hits) {
      const internal = this.internalIdOf(hit.id);
      candidates.add(internal);
      keyOf.set(internal, this.keyOf.get(hit.id)!);
    }
    this.lastMatches = this.control.lexical.size;
    const lexicalOf = new Map(this.control.lexical);
    this.control.lexical.clear();
    if (useVector) {
      node.k = depth;
      const found = search(this.db, { mode: 'vector', vector: { value: query.vector!, property: 'embedding' }, similarity: -1, limit: depth, ...(where ? { where } : {}) } as never) as unknown as OramaHits;
      for (const hit of found.hits) {
        const internal = this.internalIdOf(hit.id);
        candidates.add(internal);
        keyOf.set(internal, this.keyOf.get(hit.id)!);
      }
    }
    const semScale = 1 / Math.min(1, Math.max(0.05, query.fullMatchCosine ?? 1));
    const weight = useVector ? effectiveWeight(query.weight ?? 0.5, query.semanticTrust) : 1;
    const hits: Array<RecordHit & { order: number; internal: number }> = [];
    for (const internal of candidates) {
      const lexical = lexicalOf.get(internal) ?? 0;
      const cosine = useVector ? (node.cosineOf(internal) ?? 0) : 0;
      const semantic = Math.max(0, cosine) * semScale;
      const blend = weight * lexical + (1 - weight) * semantic;
      hits.push({ key: keyOf.get(internal)!, score: bounded(blend), lexical: bounded(lexical), semantic: semScale > 1 ? bounded(semantic) : semantic, order: blend, internal });
    }
    hits.sort((a, b) => b.order - a.order || a.internal - b.internal);
    return hits.slice(0, limit).map(({ key, score, lexical, semantic }) => ({ key, score, lexical, semantic }));
  }
}
