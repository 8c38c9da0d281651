/** One term's postings: slots holding it and how often, `n` of them (arrays may be longer). */
export interface Posting {
  docs: Int32Array;
  tfs: Uint16Array;
  n: number;
}

/** Postings packed for a snapshot: terms sorted (JavaScript string order), CSR arrays in that order. */
export interface PackedPostings {
  /** UTF-8 terms joined by `\n`, sorted. */
  termBytes: Uint8Array;
  /** Term i owns docs/tfs[offsets[i] .. offsets[i+1]). */
  offsets: Uint32Array;
  docs: Int32Array;
  tfs: Uint16Array;
}

const NEWLINE = 0x0a;
const decoder = new TextDecoder();
const encoder = new TextEncoder();

/**
 * The inverted index of a collection (see text-postings.ts). Restored from a snapshot it stays packed as read
 * (a sorted vocabulary in UTF-8 and CSR arrays, found by binary search): nothing is decoded or
 * copied until a term is looked up, so a large index restores in the time of one read. Terms
 * that gain postings afterwards are copied out into a small map (copy on write), which wins
 * over the packed part.
 */
export class Postings {
  private termBytes: Uint8Array = new Uint8Array(0);
  /** Start of each packed term in `termBytes`, plus one past the end (n + 1 entries). */
  private termStarts: Uint32Array = new Uint32Array(1);
  private offsets: Uint32Array = new Uint32Array(1);
  private docs: Int32Array = new Int32Array(0);
  private tfs: Uint16Array = new Uint16Array(0);
  private readonly changed = new Map<string, Posting>();

  /** Postings restored from a snapshot (the arrays are used in place). */
  static fromPacked(packed: PackedPostings): Postings {
    const postings = new Postings();
    const bytes = packed.termBytes;
    const count = packed.offsets.length - 1;
    const starts = new Uint32Array(count + 1);
    let at = 0;
    for (let i = 1; i < count; i += 1) {
      at = bytes.indexOf(NEWLINE, at);
      if (at < 0) throw new Error('damaged vocabulary');
      at += 1;
      starts[i] = at;
    }
    starts[count] = bytes.length + 1;
    postings.termBytes = bytes;
    postings.termStarts = starts;
    postings.offsets = packed.offsets;
    postings.docs = packed.docs;
    postings.tfs = packed.tfs;
    return postings;
  }

  private packedCount(): number {
    return this.offsets.length - 1;
  }

  private packedTerm(i: number): string {
    return decoder.decode(this.termBytes.subarray(this.termStarts[i]!, this.termStarts[i + 1]! - 1));
  }

  /** Index of a term in the packed part, or −1. */
  private find(term: string): number {
    let lo = 0;
    let hi = this.packedCount() - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const probe = this.packedTerm(mid);
      if (probe === term) return mid;
      if (probe < term) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  private packedPosting(i: number): Posting {
    const start = this.offsets[i]!;
    const end = this.offsets[i + 1]!;
    return { docs: this.docs.subarray(start, end), tfs: this.tfs.subarray(start, end), n: end - start };
  }

  /** A term's postings (read-only views), or undefined. */
  get(term: string): Posting | undefined {
    const own = this.changed.get(term);
    if (own) return own;
    const i = this.find(term);
    return i < 0 ? undefined : this.packedPosting(i);
  }

  /** Notes that `slot` holds `term` `tf` times (slots arrive in increasing order). */
  append(term: string, slot: number, tf: number): void {
    let posting = this.changed.get(term);
    if (!posting) {
      const i = this.find(term);
      if (i < 0) posting = { docs: new Int32Array(4), tfs: new Uint16Array(4), n: 0 };
      else {
        const packed = this.packedPosting(i);
        posting = { docs: new Int32Array(packed.n * 2 + 4), tfs: new Uint16Array(packed.n * 2 + 4), n: packed.n };
        posting.docs.set(packed.docs);
        posting.tfs.set(packed.tfs);
      }
      this.changed.set(term, posting);
    } else if (posting.n === posting.docs.length) {
      const docs = new Int32Array(posting.n * 2);
      docs.set(posting.docs);
      const tfs = new Uint16Array(posting.n * 2);
      tfs.set(posting.tfs);
      posting.docs = docs;
      posting.tfs = tfs;
    }
    posting.docs[posting.n] = slot;
    posting.tfs[posting.n] = Math.min(tf, 65_535);
    posting.n += 1;
  }

  /** Every term with its postings (packed ones decoded), for packing or compaction. */
  private *entries(): Generator<[string, Posting]> {
    for (let i = 0; i < this.packedCount(); i += 1) {
      const term = this.packedTerm(i);
      if (!this.changed.has(term)) yield [term, this.packedPosting(i)];
    }
    yield* this.changed;
  }

  /**
   * Packs every term, sorted, with slots renumbered by `remap` (−1 drops a slot; terms left with
   * none go); the result also becomes this store's packed part.
   */
  pack(remap?: Int32Array): PackedPostings {
    const kept: Array<[string, Posting]> = [];
    let total = 0;
    for (const [term, posting] of this.entries()) {
      let n = posting.n;
      if (remap) {
        n = 0;
        for (let i = 0; i < posting.n; i += 1) if (remap[posting.docs[i]!]! >= 0) n += 1;
      }
      if (n === 0) continue;
      kept.push([term, posting]);
      total += n;
    }
    kept.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const offsets = new Uint32Array(kept.length + 1);
    const docs = new Int32Array(total);
    const tfs = new Uint16Array(total);
    let at = 0;
    kept.forEach(([, posting], t) => {
      offsets[t] = at;
      for (let i = 0; i < posting.n; i += 1) {
        const slot = remap ? remap[posting.docs[i]!]! : posting.docs[i]!;
        if (slot < 0) continue;
        docs[at] = slot;
        tfs[at] = posting.tfs[i]!;
        at += 1;
      }
    });
    offsets[kept.length] = at;
    const packed: PackedPostings = { termBytes: encoder.encode(kept.map(([term]) => term).join('\n')), offsets, docs, tfs };
    const fresh = Postings.fromPacked(packed);
    this.termBytes = fresh.termBytes;
    this.termStarts = fresh.termStarts;
    this.offsets = fresh.offsets;
    this.docs = fresh.docs;
    this.tfs = fresh.tfs;
    this.changed.clear();
    return packed;
  }
}
