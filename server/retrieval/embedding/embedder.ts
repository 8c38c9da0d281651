import { breatherEvery } from '../../platform/breather';
import type { Provider } from '../../providers';
import { OFFLINE_DIMS, OFFLINE_MODEL, offlineEmbed } from './offline-embedder';

/** Turns texts into unit-length vectors. `model` names what made them (stored with each vector). */
export interface Embedder {
  readonly model: string;
  /** Dimensions, when known before the first call. */
  readonly dims?: number;
  /** True for the built-in embedder (cheap enough to run in the ingestion worker). */
  readonly offline: boolean;
  /** Cosine at which a query–passage match counts as full relevance (see IndexQuery). */
  readonly fullMatchCosine: number;
  /**
   * How far its similarity is trusted next to BM25 in hybrid search (1 = the configured weight as
   * is; less shifts the blend towards BM25, see `effectiveWeight`). Default 1.
   */
  readonly semanticTrust?: number;
  /** Best lexical hits folded into the query vector in hybrid search (see IndexQuery). Default 0. */
  readonly lexicalFeedback?: number;
  embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

/** Work the offline embedder does between two hand-backs of the event loop. */
const OFFLINE_SLICE_MS = 8;

/** The built-in offline embedder. */
export const offlineEmbedder: Embedder = {
  model: OFFLINE_MODEL,
  dims: OFFLINE_DIMS,
  offline: true,
  // Measured on MS MARCO (bench/retrieval.ts): relevant query–passage pairs sit around 0.3–0.6.
  fullMatchCosine: 0.5,
  // Hashed words and trigrams repeat what BM25 knows, with no idf: alone, its vector adds nothing
  // to BM25 on MS MARCO. Folding the 3 best lexical hits into the query vector makes it bring
  // related passages; with that, a lexical weight of 0.7 (0.5 as configured → 0.7) ranks best
  // (bench/retrieval.ts, quality part).
  semanticTrust: 0.43,
  lexicalFeedback: 3,
  /** On the thread that calls it, handing the event loop back every few milliseconds (many or long texts: /v1/embeddings). */
  async embed(texts, signal) {
    const breathe = breatherEvery(OFFLINE_SLICE_MS);
    const vectors: Float32Array[] = [];
    for (const text of texts) {
      signal?.throwIfAborted();
      vectors.push(offlineEmbed(text));
      await breathe();
    }
    return vectors;
  },
};

/** Scales a vector to unit length (dot product = cosine). */
export function normalise(values: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(values);
  let norm = 0;
  for (let i = 0; i < out.length; i += 1) norm += out[i]! * out[i]!;
  if (norm > 0) {
    const scale = 1 / Math.sqrt(norm);
    for (let i = 0; i < out.length; i += 1) out[i]! *= scale;
  }
  return out;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    });
  });

/** Options of a provider-backed embedder. */
export interface ProviderEmbedderOptions {
  provider: Provider;
  /** The provider's model id. */
  model: string;
  batchSize: number;
  /** Attempts per batch (default 3) and the first back-off delay in ms (doubled each time, default 500). */
  attempts?: number;
  backoffMs?: number;
}

/** An embedder over a provider's embeddings endpoint: batched, retried with back-off, normalised. */
export function providerEmbedder(options: ProviderEmbedderOptions): Embedder {
  const attempts = options.attempts ?? 3;
  const backoff = options.backoffMs ?? 500;
  return {
    model: `${options.provider.kind}:${options.model}`,
    offline: false,
    fullMatchCosine: 1,
    async embed(texts, signal) {
      const out: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += options.batchSize) {
        const batch = texts.slice(start, start + options.batchSize);
        for (let attempt = 1; ; attempt += 1) {
          try {
            const vectors = await options.provider.embed(options.model, [...batch], signal);
            for (const vector of vectors) out.push(normalise(vector));
            break;
          } catch (error) {
            if (signal?.aborted || attempt >= attempts) {
              const message = error instanceof Error ? error.message : String(error);
              throw new Error(`the embedding provider failed (${options.model}): ${message}`);
            }
            await sleep(backoff * 2 ** (attempt - 1), signal);
          }
        }
      }
      return out;
    },
  };
}
