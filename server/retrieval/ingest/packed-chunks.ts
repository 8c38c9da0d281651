import type { PreparedChunk } from '../retrieval.service';
import type { Chunk } from './chunk';

/**
 * A file's chunks in a form that crosses threads cheaply: their texts, contexts and meta (JSON)
 * each joined into one string, with the ends in a typed array (transferable). Thousands of small
 * objects cost the receiving thread a long structured-clone pause (~¼ s for a 7.5 MB page's
 * 6,800 chunks, on the event loop that answers requests); three strings and an array do not.
 */
export interface PackedChunks {
  texts: string;
  contexts: string;
  metas: string;
  /** Per chunk: the end of its text, of its context (equal to the one before when it has none) and of its meta. */
  ends: Uint32Array;
  /** Per chunk: 1 when it has a context. */
  withContext: Uint8Array;
}

/** Packs chunks (on the worker). */
export function packChunks(chunks: readonly Chunk[]): PackedChunks {
  const ends = new Uint32Array(chunks.length * 3);
  const withContext = new Uint8Array(chunks.length);
  const texts: string[] = [];
  const contexts: string[] = [];
  const metas: string[] = [];
  let text = 0;
  let context = 0;
  let meta = 0;
  chunks.forEach((chunk, i) => {
    const json = JSON.stringify(chunk.meta);
    texts.push(chunk.text);
    metas.push(json);
    text += chunk.text.length;
    meta += json.length;
    if (chunk.context !== null) {
      contexts.push(chunk.context);
      context += chunk.context.length;
      withContext[i] = 1;
    }
    ends[i * 3] = text;
    ends[i * 3 + 1] = context;
    ends[i * 3 + 2] = meta;
  });
  return { texts: texts.join(''), contexts: contexts.join(''), metas: metas.join(''), ends, withContext };
}

/** How many chunks are packed. */
export const chunkCount = (packed: PackedChunks) => packed.withContext.length;

/** The chunks back, ready to store (on the service's thread: slices of the three strings, no parsing). */
export function unpackChunks(packed: PackedChunks): PreparedChunk[] {
  const out: PreparedChunk[] = new Array(chunkCount(packed));
  let text = 0;
  let context = 0;
  let meta = 0;
  for (let i = 0; i < out.length; i += 1) {
    const [textEnd, contextEnd, metaEnd] = [packed.ends[i * 3]!, packed.ends[i * 3 + 1]!, packed.ends[i * 3 + 2]!];
    out[i] = { text: packed.texts.slice(text, textEnd), context: packed.withContext[i] ? packed.contexts.slice(context, contextEnd) : null, meta: packed.metas.slice(meta, metaEnd) };
    text = textEnd;
    context = contextEnd;
    meta = metaEnd;
  }
  return out;
}
