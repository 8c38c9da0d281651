import { Postings, type PackedPostings } from './postings';

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
