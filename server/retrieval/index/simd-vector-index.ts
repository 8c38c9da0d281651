import { VectorStore } from './vector-store';

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
