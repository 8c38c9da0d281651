import { analyze } from '../analysis/text-analysis';

/** Dimensions of the built-in embedder. */
export const OFFLINE_DIMS = 384;
/** The model name stored with vectors the built-in embedder made (bump when the features change). */
export const OFFLINE_MODEL = 'parley-offline-hash-384-v1';

/** FNV-1a 32-bit hash of a string. */
function fnv1a(text: string, seed = 0x811c9dc5): number {
  let hash = seed;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function add(vector: Float32Array, feature: string, weight: number): void {
  const h = fnv1a(feature);
  // Signed hashing: collisions cancel out on average instead of inflating similarity.
  vector[h % OFFLINE_DIMS]! += h & 0x80000000 ? -weight : weight;
}

/**
 * The built-in offline embedder: a hashed feature vector of the analysed words (weight 1),
 * adjacent word pairs (0.5) and character trigrams of each word (0.2 each, so "hypertrophy"
 * and "hypertrophic" still meet), with sublinear term weighting, L2-normalised to 384 dims.
 * Deterministic and fast (tens of µs per chunk), so a fresh offline install has working hybrid
 * search with no model at all. Not a neural model: it finds shared words and word forms.
 */
export function offlineEmbed(text: string, out: Float32Array = new Float32Array(OFFLINE_DIMS)): Float32Array {
  return offlineEmbedTerms(analyze(text), out);
}

/**
 * {@link offlineEmbed} of text analysed already: ingestion analyses each chunk once, for this
 * vector and for the search index's postings.
 */
export function offlineEmbedTerms(terms: readonly string[], out: Float32Array = new Float32Array(OFFLINE_DIMS)): Float32Array {
  out.fill(0);
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  for (const [term, count] of counts) {
    const weight = 1 + Math.log(count);
    add(out, `w:${term}`, weight);
    const padded = `^${term}$`;
    if (padded.length > 4) for (let i = 0; i + 3 <= padded.length; i += 1) add(out, padded.slice(i, i + 3), 0.2 * weight);
  }
  for (let i = 1; i < terms.length; i += 1) add(out, `b:${terms[i - 1]} ${terms[i]}`, 0.5);
  let norm = 0;
  for (let i = 0; i < OFFLINE_DIMS; i += 1) norm += out[i]! * out[i]!;
  if (norm === 0) return out;
  const scale = 1 / Math.sqrt(norm);
  for (let i = 0; i < OFFLINE_DIMS; i += 1) out[i]! *= scale;
  return out;
}
