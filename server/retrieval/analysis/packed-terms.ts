/**
 * Analysed terms of many chunks in a form that crosses threads cheaply: one vocabulary string
 * and two typed arrays (transferable), instead of thousands of small strings. Ingestion
 * analyses each chunk once on its worker, for the offline vector and for the index postings.
 */
export interface PackedTerms {
  /** Distinct terms joined by `\n` (analysed terms never hold whitespace). */
  vocab: string;
  /** Term numbers of every chunk, one after another. */
  ids: Uint32Array;
  /** Chunk i owns `ids[offsets[i] .. offsets[i + 1])`. */
  offsets: Uint32Array;
}

/** Packs per-chunk term lists (with repeats, in order). */
export function packTerms(lists: readonly (readonly string[])[]): PackedTerms {
  const numbers = new Map<string, number>();
  const offsets = new Uint32Array(lists.length + 1);
  let total = 0;
  for (let i = 0; i < lists.length; i += 1) {
    offsets[i] = total;
    total += lists[i]!.length;
  }
  offsets[lists.length] = total;
  const ids = new Uint32Array(total);
  let at = 0;
  for (const list of lists) {
    for (const term of list) {
      let n = numbers.get(term);
      if (n === undefined) {
        n = numbers.size;
        numbers.set(term, n);
      }
      ids[at] = n;
      at += 1;
    }
  }
  return { vocab: [...numbers.keys()].join('\n'), ids, offsets };
}

/** The term lists back (strings of the vocabulary are shared, not copied per use). */
export function unpackTerms(packed: PackedTerms): string[][] {
  const vocab = packed.vocab === '' ? [] : packed.vocab.split('\n');
  const lists: string[][] = [];
  for (let i = 0; i + 1 < packed.offsets.length; i += 1) {
    const start = packed.offsets[i]!;
    const end = packed.offsets[i + 1]!;
    const list = new Array<string>(end - start);
    for (let j = start; j < end; j += 1) list[j - start] = vocab[packed.ids[j]!]!;
    lists.push(list);
  }
  return lists;
}
