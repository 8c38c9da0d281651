import { dotsKernel, wasm, type DotsKernel, type WasmMemory } from './simd-dot';

const PAGE = 65_536;
/** Pages added per step by {@link VectorStore.reserve} (4 MB). */
const GROW_STEP_PAGES = 64;

/**
 * Packed unit vectors of one index, kept in WebAssembly memory so the SIMD kernel scans them
 * in place: `[query | vectors (capacity × dims) | scores (capacity)]`. Without SIMD (or with
 * dimensions that are not a multiple of 8) the same layout is scanned by a JavaScript loop.
 */
export class VectorStore {
  readonly dims: number;
  private memory: WasmMemory;
  private kernel: DotsKernel | null;
  private capacity = 0;
  private view!: Float32Array;

  constructor(dims: number, capacity = 256) {
    this.dims = dims;
    this.memory = new wasm.Memory({ initial: 1, maximum: 65_536 });
    this.kernel = dims % 8 === 0 ? dotsKernel(this.memory) : null;
    this.ensure(capacity);
  }

  private get queryBytes(): number {
    return Math.ceil((this.dims * 4) / 16) * 16;
  }

  /** Byte offset of slot 0's vector. */
  private get vectorsAt(): number {
    return this.queryBytes;
  }

  private get scoresAt(): number {
    return this.queryBytes + this.capacity * this.dims * 4;
  }

  /** Makes room for `slots` vectors (existing ones stay in place). */
  ensure(slots: number): void {
    if (slots <= this.capacity) return;
    const capacity = Math.max(slots, Math.ceil(this.capacity * 1.5));
    const bytes = this.queryBytes + capacity * this.dims * 4 + capacity * 4;
    const pages = Math.ceil(bytes / PAGE);
    const have = this.memory.buffer.byteLength / PAGE;
    if (pages > have) this.memory.grow(pages - have);
    this.capacity = capacity;
    this.view = new Float32Array(this.memory.buffer);
  }

  /**
   * Makes room for exactly `slots` vectors, growing the memory a few megabytes at a time with
   * `between` awaited after each step (a restore of 100k vectors grows it by ~150 MB; in one step
   * that holds the event loop for tens of milliseconds).
   */
  async reserve(slots: number, between: () => Promise<void>): Promise<void> {
    if (slots <= this.capacity) return;
    const bytes = this.queryBytes + slots * this.dims * 4 + slots * 4;
    const pages = Math.ceil(bytes / PAGE);
    for (let have = this.memory.buffer.byteLength / PAGE; have < pages; have = this.memory.buffer.byteLength / PAGE) {
      this.memory.grow(Math.min(GROW_STEP_PAGES, pages - have));
      await between();
    }
    this.capacity = slots;
    this.view = new Float32Array(this.memory.buffer);
  }

  /** Writes a vector into a slot. */
  set(slot: number, vector: Float32Array): void {
    this.view.set(vector, this.vectorsAt / 4 + slot * this.dims);
  }

  /** The vector of a slot (a view; copy it before keeping it). */
  get(slot: number): Float32Array {
    const start = this.vectorsAt / 4 + slot * this.dims;
    return this.view.subarray(start, start + this.dims);
  }

  /** Vectors of slots `0..size` as one view (for snapshots). */
  packed(size: number): Float32Array {
    const start = this.vectorsAt / 4;
    return this.view.subarray(start, start + size * this.dims);
  }

  /** Copies packed vectors into slots `0..n`. */
  load(packed: Float32Array): void {
    this.ensure(packed.length / this.dims);
    this.view.set(packed, this.vectorsAt / 4);
  }

  /** Moves a vector from one slot to another (compaction). */
  move(from: number, to: number): void {
    const base = this.vectorsAt / 4;
    this.view.copyWithin(base + to * this.dims, base + from * this.dims, base + (from + 1) * this.dims);
  }

  /** Dot products of `query` with slots `0..size`; the returned view is valid until the next call. */
  scan(query: Float32Array, size: number): Float32Array {
    const view = this.view;
    view.set(query, 0);
    const scores = view.subarray(this.scoresAt / 4, this.scoresAt / 4 + size);
    if (this.kernel) {
      this.kernel(this.vectorsAt, 0, size, this.dims * 4, this.scoresAt);
      return scores;
    }
    const dims = this.dims;
    for (let slot = 0, off = this.vectorsAt / 4; slot < size; slot += 1, off += dims) {
      let s = 0;
      for (let j = 0; j < dims; j += 1) s += view[off + j]! * view[j]!;
      scores[slot] = s;
    }
    return scores;
  }
}
