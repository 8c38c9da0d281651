import { Postings } from './postings';
import { analyze } from './text-analysis';
import { VectorStore } from './vector-store';

/** BM25 parameters (the usual Lucene/Anserini defaults). */
const K1 = 1.2;
const B = 0.75;
/** Reciprocal rank fusion constant. */
const RRF_K = 60;

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

/** A search result: the chunk, its blended score and the two signals behind it (all 0..1). */
export interface IndexHit {
  id: number;
  fileId: string;
  score: number;
  /** The ranking key: `score` when blending, the fused rank score with RRF. */
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
  /** `blend`: weight × lexical + (1 − weight) × semantic; `rrf`: reciprocal rank fusion ordering. */
  fusion: 'blend' | 'rrf';
  limit: number;
  /**
   * Cosine at which the embedder's match counts as full (semantic = min(1, cosine ÷ this)).
   * Default 1. Short queries against long chunks rarely pass 0.5 cosine with bag-of-features
   * embedders, so those declare a lower reference to keep the threshold meaningful.
   */
  fullMatchCosine?: number;
}

/** The arrays an index is made of, for snapshots. */
export interface IndexState {
  dims: number;
  model: string;
  size: number;
  chunkIds: Float64Array;
  fileOf: Int32Array;
  files: string[];
  alive: Uint8Array;
  docLen: Uint32Array;
  hasVector: Uint8Array;
  vectors: Float32Array;
  /** The vocabulary: UTF-8 terms joined by `\n`, sorted (JavaScript string order). */
  termBytes: Uint8Array;
  /** CSR postings: term i owns docs/tfs[offsets[i] .. offsets[i+1]). */
  offsets: Uint32Array;
  docs: Int32Array;
  tfs: Uint16Array;
}

function grow<T extends Float64Array | Int32Array | Uint8Array | Uint32Array>(array: T, needed: number): T {
  if (array.length >= needed) return array;
  const next = new (array.constructor as new (n: number) => T)(Math.max(needed, Math.ceil(array.length * 1.5) + 16));
  next.set(array);
  return next;
}

/**
 * An in-memory hybrid index of one collection (a knowledge base, or one file of a chat):
 * BM25 over an inverted index in typed arrays, and exact cosine over a packed Float32Array of
 * unit vectors. Chunks are added in batches and removed per file (tombstoned, compacted when a
 * quarter is dead). Scores are normalised to 0..1 in absolute terms, so a threshold means the
 * same from one query to the next:
 * - lexical = BM25 ÷ the BM25 an average-length chunk holding each query term once would get
 *   (capped at 1): 1 means "all the query's words are here";
 * - semantic = max(0, cosine) ÷ the embedder's full-match cosine, capped at 1.
 */
export class HybridIndex {
  readonly dims: number;
  /** The embedding model the vectors come from. */
  model: string;
  private size = 0;
  private aliveCount = 0;
  private totalLen = 0;
  private chunkIds: Float64Array<ArrayBufferLike> = new Float64Array(0);
  private fileOf: Int32Array<ArrayBufferLike> = new Int32Array(0);
  private files: string[] = [];
  private fileIndex = new Map<string, number>();
  private alive: Uint8Array<ArrayBufferLike> = new Uint8Array(0);
  private docLen: Uint32Array<ArrayBufferLike> = new Uint32Array(0);
  private hasVector: Uint8Array<ArrayBufferLike> = new Uint8Array(0);
  private vectors: VectorStore;
  private postings = new Postings();
  private lexScratch = new Float32Array(0);
  private semScale = 1;

  constructor(dims: number, model: string) {
    this.dims = dims;
    this.model = model;
    this.vectors = new VectorStore(dims);
  }

  /** Live chunks. */
  get count(): number {
    return this.aliveCount;
  }

  /** Adds chunks (their terms are analysed here). */
  add(chunks: readonly IndexInput[]): void {
    const needed = this.size + chunks.length;
    this.chunkIds = grow(this.chunkIds, needed);
    this.fileOf = grow(this.fileOf, needed);
    this.alive = grow(this.alive, needed);
    this.docLen = grow(this.docLen, needed);
    this.hasVector = grow(this.hasVector, needed);
    this.vectors.ensure(needed);
    const counts = new Map<string, number>();
    for (const chunk of chunks) {
      const slot = this.size;
      this.size += 1;
      let file = this.fileIndex.get(chunk.fileId);
      if (file === undefined) {
        file = this.files.length;
        this.files.push(chunk.fileId);
        this.fileIndex.set(chunk.fileId, file);
      }
      this.chunkIds[slot] = chunk.id;
      this.fileOf[slot] = file;
      this.alive[slot] = 1;
      const terms = chunk.terms ?? analyze(chunk.text);
      this.docLen[slot] = terms.length;
      this.totalLen += terms.length;
      this.aliveCount += 1;
      if (chunk.vector && chunk.vector.length === this.dims) {
        this.vectors.set(slot, chunk.vector);
        this.hasVector[slot] = 1;
      }
      counts.clear();
      for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
      for (const [term, tf] of counts) this.postings.append(term, slot, tf);
    }
  }

  /** Removes every chunk of a file; returns how many went. */
  removeFile(fileId: string): number {
    const file = this.fileIndex.get(fileId);
    if (file === undefined) return 0;
    let removed = 0;
    for (let slot = 0; slot < this.size; slot += 1) {
      if (this.fileOf[slot] === file && this.alive[slot]) {
        this.alive[slot] = 0;
        this.totalLen -= this.docLen[slot]!;
        this.aliveCount -= 1;
        removed += 1;
      }
    }
    this.fileIndex.delete(fileId);
    if (this.size > 1000 && this.size - this.aliveCount > this.size / 4) this.compact();
    return removed;
  }

  /** Drops tombstoned slots and their postings. */
  compact(): void {
    const remap = new Int32Array(this.size).fill(-1);
    let next = 0;
    for (let slot = 0; slot < this.size; slot += 1) {
      if (!this.alive[slot]) continue;
      remap[slot] = next;
      if (next !== slot) {
        this.chunkIds[next] = this.chunkIds[slot]!;
        this.fileOf[next] = this.fileOf[slot]!;
        this.docLen[next] = this.docLen[slot]!;
        this.hasVector[next] = this.hasVector[slot]!;
        this.vectors.move(slot, next);
      }
      this.alive[next] = 1;
      next += 1;
    }
    this.alive.fill(0, next, this.size);
    this.size = next;
    this.postings.pack(remap);
  }

  /** Chunk ids of a file still in the index. */
  has(fileId: string): boolean {
    return this.fileIndex.has(fileId);
  }

  /** Ranks live chunks for a query; returns at most `limit` hits, best first. */
  search(query: IndexQuery): IndexHit[] {
    const size = this.size;
    if (size === 0 || query.limit <= 0) return [];
    const useText = query.mode !== 'vector';
    const useVector = query.mode !== 'text' && query.vector !== null && query.vector.length === this.dims;
    if (this.lexScratch.length < size) this.lexScratch = new Float32Array(Math.ceil(size * 1.25));
    const lex = this.lexScratch;
    const touched: number[] = [];
    if (useText) this.scoreText(query.text, lex, touched);
    const sem = useVector ? this.vectors.scan(query.vector!, size) : lex;

    this.semScale = 1 / Math.min(1, Math.max(0.05, query.fullMatchCosine ?? 1));
    const weight = query.mode === 'text' ? 1 : query.mode === 'vector' || !useText ? 0 : useVector ? query.weight : 1;
    const limit = Math.min(query.limit, this.aliveCount);
    let hits: IndexHit[];
    if (query.fusion === 'rrf' && useText && useVector && weight > 0 && weight < 1) {
      hits = this.fuseRanks(lex, sem, touched, limit, weight);
    } else {
      const top = new TopK(limit);
      if (!useVector) {
        for (const slot of touched) top.offer(slot, lex[slot]!);
      } else {
        const alive = this.alive;
        const hasVector = this.hasVector;
        for (let slot = 0; slot < size; slot += 1) {
          if (!alive[slot]) continue;
          const s = hasVector[slot] ? Math.min(1, Math.max(0, sem[slot]!) * this.semScale) : 0;
          top.offer(slot, weight * lex[slot]! + (1 - weight) * s);
        }
      }
      hits = top.sorted().map(([slot, score]) => this.hit(slot, score, lex, sem, useVector));
    }
    for (const slot of touched) lex[slot] = 0;
    return hits;
  }

  private hit(slot: number, score: number, lex: Float32Array, sem: Float32Array, useVector: boolean, order = score): IndexHit {
    return {
      id: this.chunkIds[slot]!,
      fileId: this.files[this.fileOf[slot]!]!,
      score,
      order,
      lexical: lex[slot]!,
      semantic: useVector && this.hasVector[slot] ? Math.min(1, Math.max(0, sem[slot]!) * this.semScale) : 0,
    };
  }

  /** Reciprocal rank fusion of the two rankings; the score reported is the blended 0..1 one. */
  private fuseRanks(lex: Float32Array, sem: Float32Array, touched: number[], limit: number, weight: number): IndexHit[] {
    const depth = Math.max(limit * 4, 100);
    const lexTop = new TopK(depth);
    for (const slot of touched) lexTop.offer(slot, lex[slot]!);
    const semTop = new TopK(depth);
    for (let slot = 0; slot < this.size; slot += 1) if (this.alive[slot] && this.hasVector[slot]) semTop.offer(slot, sem[slot]!);
    const fused = new Map<number, number>();
    lexTop.sorted().forEach(([slot], rank) => fused.set(slot, 1 / (RRF_K + rank + 1)));
    semTop.sorted().forEach(([slot], rank) => fused.set(slot, (fused.get(slot) ?? 0) + 1 / (RRF_K + rank + 1)));
    const top = new TopK(limit);
    for (const [slot, score] of fused) top.offer(slot, score);
    return top.sorted().map(([slot, order]) => this.hit(slot, weight * lex[slot]! + (1 - weight) * Math.min(1, Math.max(0, sem[slot]!) * this.semScale), lex, sem, true, order));
  }

  /** BM25 of every chunk holding a query term, normalised as described on the class. */
  private scoreText(text: string, lex: Float32Array, touched: number[]): void {
    const terms = [...new Set(analyze(text))];
    if (terms.length === 0 || this.aliveCount === 0) return;
    const n = this.aliveCount;
    const invAvg = this.totalLen > 0 ? n / this.totalLen : 1;
    let ideal = 0;
    const docLen = this.docLen;
    const alive = this.alive;
    for (const term of terms) {
      const posting = this.postings.get(term);
      const df = posting?.n ?? 0;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      ideal += idf;
      if (!posting) continue;
      const { docs, tfs } = posting;
      for (let i = 0; i < df; i += 1) {
        const slot = docs[i]!;
        if (!alive[slot]) continue;
        const tf = tfs[i]!;
        const norm = K1 * (1 - B + B * docLen[slot]! * invAvg);
        if (lex[slot] === 0) touched.push(slot);
        lex[slot]! += (idf * tf * (K1 + 1)) / (tf + norm);
      }
    }
    const scale = ideal > 0 ? 1 / ideal : 0;
    for (const slot of touched) lex[slot] = Math.min(1, lex[slot]! * scale);
  }

  /** The index as flat arrays (postings packed), for a snapshot. */
  exportState(): IndexState {
    if (this.size - this.aliveCount > 0) this.compact();
    const { termBytes, offsets, docs, tfs } = this.postings.pack();
    const size = this.size;
    return {
      dims: this.dims,
      model: this.model,
      size,
      chunkIds: this.chunkIds.subarray(0, size),
      fileOf: this.fileOf.subarray(0, size),
      files: [...this.files],
      alive: this.alive.subarray(0, size),
      docLen: this.docLen.subarray(0, size),
      hasVector: this.hasVector.subarray(0, size),
      vectors: this.vectors.packed(size),
      termBytes,
      offsets,
      docs,
      tfs,
    };
  }

  /**
   * An empty index whose vector slots `0..size` can be filled in place (a snapshot reads its
   * vectors straight into them); finish with {@link fromState}.
   */
  static withCapacity(dims: number, model: string, size: number): { index: HybridIndex; vectors: Float32Array } {
    const index = new HybridIndex(dims, model);
    index.vectors.ensure(Math.max(1, size));
    return { index, vectors: index.vectors.packed(size) };
  }

  /** Rebuilds an index from a snapshot's arrays without re-analysing any text. */
  static fromState(state: IndexState, into?: HybridIndex): HybridIndex {
    const index = into ?? new HybridIndex(state.dims, state.model);
    index.size = state.size;
    index.chunkIds = state.chunkIds;
    index.fileOf = state.fileOf;
    index.files = state.files;
    index.alive = state.alive;
    index.docLen = state.docLen;
    index.hasVector = state.hasVector;
    // Vectors read into this index's own slots already need no copy.
    if (state.vectors.buffer !== index.vectors.packed(0).buffer) index.vectors.load(state.vectors);
    const fileOf = state.fileOf;
    const alive = state.alive;
    const docLen = state.docLen;
    let aliveCount = 0;
    let totalLen = 0;
    const seen = new Uint8Array(state.files.length);
    for (let slot = 0; slot < state.size; slot += 1) {
      if (!alive[slot]) continue;
      aliveCount += 1;
      totalLen += docLen[slot]!;
      seen[fileOf[slot]!] = 1;
    }
    index.aliveCount = aliveCount;
    index.totalLen = totalLen;
    state.files.forEach((fileId, i) => {
      if (seen[i]) index.fileIndex.set(fileId, i);
    });
    index.postings = Postings.fromPacked(state);
    return index;
  }
}

/** Keeps the `k` best (slot, score) pairs seen, without sorting everything. */
class TopK {
  private readonly slots: number[] = [];
  private readonly scores: number[] = [];
  private min = -Infinity;
  private minAt = -1;

  constructor(private readonly k: number) {}

  offer(slot: number, score: number): void {
    if (this.k <= 0) return;
    if (this.slots.length < this.k) {
      this.slots.push(slot);
      this.scores.push(score);
      if (this.slots.length === this.k) this.findMin();
      return;
    }
    if (score <= this.min) return;
    this.slots[this.minAt] = slot;
    this.scores[this.minAt] = score;
    this.findMin();
  }

  private findMin(): void {
    let min = Infinity;
    let at = -1;
    for (let i = 0; i < this.scores.length; i += 1) {
      if (this.scores[i]! < min) {
        min = this.scores[i]!;
        at = i;
      }
    }
    this.min = min;
    this.minAt = at;
  }

  /** Best first; ties keep insertion order (earlier chunks first). */
  sorted(): Array<[number, number]> {
    return this.slots.map((slot, i): [number, number] => [slot, this.scores[i]!]).sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  }
}
