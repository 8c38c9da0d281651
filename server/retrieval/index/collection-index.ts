import { create, insertMultiple, removeMultiple, search, type AnyOrama } from '@orama/orama';
import { analyzerTokenizer, boxedVectorValidation, boxVector, slimDocumentsStore } from './document-components';
import { parleyIndex, type IndexControl } from './parley-index';
import { SimdVectorIndex } from './simd-vector-index';
import { analyzerFor, DEFAULT_LANGUAGE, type Language } from '../analysis/languages';

/** Reciprocal rank fusion constant (measured on msmarco-5k: small k keeps the lexical lead; bench/retrieval.ts). */
const RRF_K = 10;

/**
 * Maps a non-negative signal to 0..1 without flattening anything: the identity up to 0.9, then a
 * strictly increasing curve towards 1. A hard cap at 1 would give every chunk past "all the query's
 * words" the same score (ties that hide which is better); this keeps their order.
 */
export function bounded(x: number): number {
  return x <= 0.9 ? x : 1 - 0.1 * Math.exp(-(x - 0.9) / 0.1);
}

/** Weight of the lexical feedback documents, all together, next to the query vector (Rocchio β). */
const FEEDBACK_WEIGHT = 1;

/** A unit-length copy of a vector. */
function unitOf(vector: Float32Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < vector.length; i += 1) norm += vector[i]! * vector[i]!;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  return vector.map((v) => v * scale);
}

/**
 * The lexical weight actually used: the configured weight with the semantic side scaled by how
 * far the embedder is trusted (1 keeps the weight; 0.25 turns 0.5 into 0.8). 0 and 1 stay purely
 * semantic and purely lexical.
 */
export function effectiveWeight(weight: number, semanticTrust = 1): number {
  const semantic = (1 - weight) * Math.max(0, semanticTrust);
  return weight + semantic > 0 ? weight / (weight + semantic) : 1;
}
/** Documents inserted per `insertMultiple` call. */
const INSERT_BATCH = 1000;
/** Documents inserted between two hand-backs of the event loop in {@link CollectionIndex.addGradually} (a few milliseconds of work). */
const GRADUAL_SLICE = 128;

/** One chunk as the index receives it. */
export interface IndexInput {
  /** The chunk's row id in SQLite. */
  id: number;
  fileId: string;
  /** The text searched by BM25. */
  text: string;
  /** Unit-length embedding of `dims` numbers, or null when the chunk has none yet. */
  vector: Float32Array | null;
  /** `analyze(text)` when the caller has it already (ingestion analyses on its worker). */
  terms?: readonly string[];
}

/** A search result: the chunk, its relevance and the two signals behind it (all 0..1, see {@link bounded}). */
export interface IndexHit {
  id: number;
  fileId: string;
  score: number;
  /** The ranking key: the blend before {@link bounded} when blending, the fused rank score with RRF. */
  order: number;
  lexical: number;
  semantic: number;
}

/** How to score: `hybrid` blends both signals; `text` is BM25 only; `vector` cosine only. */
export interface IndexQuery {
  text: string;
  /** Unit-length query embedding (needed for `hybrid` and `vector`). */
  vector: Float32Array | null;
  mode: 'hybrid' | 'text' | 'vector';
  /** Weight of the lexical score in the blend (HYBRID_BM25_WEIGHT). */
  weight: number;
  /**
   * How far the embedder's similarity is trusted next to BM25 (1 = as configured; the offline
   * hashed embedder declares less, see {@link effectiveWeight}).
   */
  semanticTrust?: number;
  /**
   * Hybrid only: how many of the best lexical hits are folded into the query vector before the
   * vector search (pseudo-relevance feedback; 0 = none). The offline embedder declares 3.
   */
  lexicalFeedback?: number;
  /** `blend`: order by weight × lexical + (1 − weight) × semantic; `rrf`: reciprocal rank fusion ordering. */
  fusion: 'blend' | 'rrf';
  limit: number;
  /**
   * Cosine at which the embedder's match counts as full (semantic = cosine ÷ this).
   * Default 1. Short queries against long chunks rarely pass 0.5 cosine with bag-of-features
   * embedders, so those declare a lower reference to keep the threshold meaningful.
   */
  fullMatchCosine?: number;
}

/** The Orama schema of a collection: searched text, the file (where-filters), the vector. */
function schemaOf(dims: number) {
  return dims > 0 ? ({ text: 'string', fileId: 'enum', embedding: `vector[${dims}]` } as const) : ({ text: 'string', fileId: 'enum' } as const);
}

type OramaHits = { hits: Array<{ id: string; score: number; document: { fileId: string } }> };

/**
 * One collection's search engine: an Orama database built from Parley's components (BM25
 * postings and the SIMD vector scan as the index, the shared analyser as the tokenizer, a slim
 * documents store, no sorter). Document ids are chunk ids. Inserting, removing and every query go
 * through Orama; scores are normalised in absolute terms, so a threshold means the same from one
 * query to the next:
 * - lexical = BM25 ÷ the BM25 an average-length chunk holding each query term once would get:
 *   1 means "all the query's words are here", more means more of them or a shorter chunk;
 * - semantic = max(0, cosine) ÷ the embedder's full-match cosine;
 * - the blend w × lexical + (1 − w) × semantic orders the hits (w: {@link effectiveWeight});
 * - score, lexical and semantic as reported go through {@link bounded}: 0..1, same order, no ties
 *   (a plain cosine, with no full-match scaling, is already 0..1 and is reported as it is; so is
 *   the score of a vector-only search).
 */
export class CollectionIndex {
  readonly dims: number;
  /** The embedding model the vectors come from. */
  model: string;
  /** The language its text is analysed in. */
  readonly language: Language;
  readonly db: AnyOrama;
  private readonly control: IndexControl;
  /** Chunk ids of each file in the index. */
  private readonly files = new Map<string, number[]>();
  private live = 0;
  /** Internal ids ever used (Orama never reuses them; removed ones are dead slots). */
  private slots = 0;

  private constructor(dims: number, model: string, language: Language, db: AnyOrama, control: IndexControl) {
    this.dims = dims;
    this.model = model;
    this.language = language;
    this.db = db;
    this.control = control;
  }

  /** An empty Orama database with Parley's components. */
  static createDb(dims: number, language: Language): { db: AnyOrama; control: IndexControl } {
    const control: IndexControl = { k: 100, pretokenized: new Map(), lexical: new Map() };
    const db = create({
      schema: schemaOf(dims),
      sort: { enabled: false },
      components: {
        validateSchema: boxedVectorValidation(dims > 0 ? { embedding: dims } : {}),
        tokenizer: analyzerTokenizer(analyzerFor(language), language),
        index: parleyIndex(control),
        documentsStore: slimDocumentsStore(['fileId']),
      },
    } as never) as AnyOrama;
    return { db, control };
  }

  static empty(dims: number, model: string, language: Language = DEFAULT_LANGUAGE): CollectionIndex {
    const { db, control } = CollectionIndex.createDb(dims, language);
    return new CollectionIndex(dims, model, language, db, control);
  }

  /** Wraps a database restored by `load()`, with the chunk ids of each file the snapshot held. */
  static restored(dims: number, model: string, language: Language, db: AnyOrama, control: IndexControl, files: Map<string, number[]>): CollectionIndex {
    const index = new CollectionIndex(dims, model, language, db, control);
    for (const [fileId, list] of files) {
      index.files.set(fileId, list);
      index.live += list.length;
    }
    index.slots = (db.internalDocumentIDStore.internalIdToId as string[]).length;
    return index;
  }

  private track(fileId: string, id: number): void {
    let list = this.files.get(fileId);
    if (!list) {
      list = [];
      this.files.set(fileId, list);
    }
    list.push(id);
    this.live += 1;
  }

  /** Live chunks. */
  get count(): number {
    return this.live;
  }

  /** The live chunk ids summed up as the database's fingerprint counts them (count, largest id, sum of ids). */
  idSummary(): { count: number; maxId: number; sumId: number } {
    let maxId = 0;
    let sumId = 0;
    for (const ids of this.files.values()) {
      for (const id of ids) {
        if (id > maxId) maxId = id;
        sumId += id;
      }
    }
    return { count: this.live, maxId, sumId };
  }

  /** Removed chunks still holding slots (Orama never reuses internal ids). */
  get deadSlots(): number {
    return this.slots - this.live;
  }

  /** True when so much was removed that rebuilding the collection would pay off. */
  get wantsCompaction(): boolean {
    return this.slots > 1000 && this.deadSlots > this.slots / 4;
  }

  /** True while the file has chunks in the index. */
  has(fileId: string): boolean {
    return this.files.has(fileId);
  }

  /** Inserts chunks through Orama (terms analysed here unless given). */
  add(chunks: readonly IndexInput[]): void {
    for (let i = 0; i < chunks.length; i += INSERT_BATCH) {
      const batch = chunks.slice(i, i + INSERT_BATCH);
      const docs = batch.map((c) => {
        const id = String(c.id);
        if (c.terms) this.control.pretokenized.set(id, c.terms);
        const withVector = this.dims > 0 && c.vector !== null && c.vector.length === this.dims;
        // Orama accepts plain arrays only for vector properties (pitfall 8): the Float32Array
        // travels boxed in a one-element array and the index component unboxes it (no copy).
        return withVector ? { id, text: c.text, fileId: c.fileId, embedding: boxVector(c.vector!) } : { id, text: c.text, fileId: c.fileId };
      });
      insertMultiple(this.db, docs as never[], docs.length);
      this.control.pretokenized.clear();
      for (const c of batch) this.track(c.fileId, c.id);
      this.slots = (this.db.internalDocumentIDStore.internalIdToId as string[]).length;
    }
  }

  /**
   * {@link add} in slices of {@link GRADUAL_SLICE} chunks with `breathe` awaited after each: a
   * large file stored on the service's thread then never holds its event loop for long.
   */
  async addGradually(chunks: readonly IndexInput[], breathe: () => Promise<void>): Promise<void> {
    for (let i = 0; i < chunks.length; i += GRADUAL_SLICE) {
      this.add(chunks.slice(i, i + GRADUAL_SLICE));
      await breathe();
    }
  }

  /** Removes every chunk of a file through Orama; returns how many went. */
  removeFile(fileId: string): number {
    const ids = this.files.get(fileId);
    if (!ids) return 0;
    // One batch as large as the ids: Orama's removeMultiple otherwise finishes later on a timer.
    void removeMultiple(
      this.db,
      ids.map((id) => String(id)),
      ids.length + 1,
    );
    this.files.delete(fileId);
    this.live -= ids.length;
    return ids.length;
  }

  private vectorNode(): SimdVectorIndex | undefined {
    const node = (this.db.data.index.vectorIndexes as Record<string, { node: unknown } | undefined>).embedding?.node;
    return node instanceof SimdVectorIndex ? node : undefined;
  }

  private chunkIdOf(internalId: number): number {
    return Number((this.db.internalDocumentIDStore.internalIdToId as string[])[internalId - 1]);
  }

  private internalIdOf(id: string): number {
    return (this.db.internalDocumentIDStore.idToInternalId as Map<string, number>).get(id)!;
  }

  /** The query vector plus, at weight 1 in all, the vectors of the given documents (best lexical hits). */
  private withFeedback(node: SimdVectorIndex, query: Float32Array, internalIds: readonly number[]): Float32Array {
    const out = unitOf(query);
    const docs = internalIds.map((id) => node.vectorOf(id)).filter((v): v is Float32Array => v !== null);
    for (const doc of docs) for (let i = 0; i < out.length; i += 1) out[i]! += (FEEDBACK_WEIGHT / docs.length) * doc[i]!;
    return out;
  }

  /** Ranks live chunks for a query; returns at most `limit` hits, best first. */
  search(query: IndexQuery): IndexHit[] {
    if (this.live === 0 || query.limit <= 0) return [];
    const limit = Math.min(query.limit, this.live);
    const node = this.vectorNode();
    const useVector = query.mode !== 'text' && query.vector !== null && node !== undefined && query.vector.length === this.dims;
    const useText = query.mode !== 'vector';
    if (!useText && !useVector) return [];
    const semScale = 1 / Math.min(1, Math.max(0.05, query.fullMatchCosine ?? 1));
    const semantic = (cosine: number | null) => (cosine === null ? 0 : Math.max(0, cosine) * semScale);
    // Candidates from each ranking: deeper than the limit, so the fusion sees what it needs.
    const depth = useText && useVector ? Math.max(limit * 4, 100) : limit;
    this.control.k = depth;

    const candidates = new Map<number, { fileId: string; textRank: number; vectorRank: number }>();
    if (useText) {
      const result = search(this.db, { term: query.text, properties: ['text'], limit: depth } as never) as unknown as OramaHits;
      result.hits.forEach((hit, rank) => candidates.set(this.internalIdOf(hit.id), { fileId: hit.document.fileId, textRank: rank, vectorRank: -1 }));
    }
    // Lexical feedback (Rocchio): the query vector plus the vectors of the best lexical hits, so
    // the vector side also looks for passages like those, not only like the query's words.
    const feedback = useText && useVector ? Math.max(0, query.lexicalFeedback ?? 0) : 0;
    const vector = feedback > 0 ? this.withFeedback(node!, query.vector!, [...candidates.keys()].slice(0, feedback)) : query.vector;
    if (useVector) {
      node.k = depth;
      const result = search(this.db, { mode: 'vector', vector: { value: vector!, property: 'embedding' }, similarity: -1, limit: depth } as never) as unknown as OramaHits;
      result.hits.forEach((hit, rank) => {
        const internalId = this.internalIdOf(hit.id);
        const known = candidates.get(internalId);
        if (known) known.vectorRank = rank;
        else candidates.set(internalId, { fileId: hit.document.fileId, textRank: -1, vectorRank: rank });
      });
    }
    // With feedback, the ranking uses the expanded query; the reported semantic score (and so
    // the relevance the threshold reads) stays the cosine with the query itself.
    const unitQuery = vector !== query.vector ? unitOf(query.vector!) : undefined;
    const cosineOf = (internalId: number) => (unitQuery ? node!.dotWith(internalId, unitQuery) : node!.cosineOf(internalId));

    const weight = !useText ? 0 : !useVector ? 1 : effectiveWeight(query.weight, query.semanticTrust);
    const rrf = query.fusion === 'rrf' && useText && useVector && weight > 0 && weight < 1;
    const hits: Array<IndexHit & { internalId: number }> = [];
    for (const [internalId, c] of candidates) {
      const lexical = useText ? (this.control.lexical.get(internalId) ?? 0) : 0;
      const sem = useVector ? semantic(cosineOf(internalId)) : 0;
      const blend = weight * lexical + (1 - weight) * sem;
      // A cosine (scale 1) is already 0..1: an identical text reports 1. Scaled up, it is bounded like lexical.
      const reportedSem = semScale > 1 ? bounded(sem) : sem;
      const ranked = unitQuery ? weight * lexical + (1 - weight) * semantic(node!.cosineOf(internalId)) : blend;
      const order = rrf ? (c.textRank >= 0 ? weight / (RRF_K + c.textRank + 1) : 0) + (c.vectorRank >= 0 ? (1 - weight) / (RRF_K + c.vectorRank + 1) : 0) : ranked;
      hits.push({ id: this.chunkIdOf(internalId), internalId, fileId: c.fileId, score: weight === 0 ? reportedSem : bounded(blend), order, lexical: bounded(lexical), semantic: reportedSem });
    }
    this.control.lexical.clear();
    hits.sort((a, b) => b.order - a.order || a.internalId - b.internalId);
    return hits.slice(0, limit).map(({ internalId: _internal, ...hit }) => hit);
  }
}
