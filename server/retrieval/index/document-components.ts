import { components } from '@orama/orama';

/*
 * How documents enter a collection's Orama database: vectors passed without copying them into
 * plain arrays, the analyser as Orama's tokenizer, and a documents store that keeps only what
 * results need (SQLite holds text and vectors).
 */

/**
 * A Float32Array wrapped so Orama's insert accepts it as a vector (it checks `Array.isArray`,
 * pitfall 8) without copying 384 numbers into a plain array per chunk.
 */
export function boxVector(vector: Float32Array): [Float32Array] {
  return [vector];
}

/** The vector inside a {@link boxVector} box, or the plain number array Orama was given. */
export function unboxVector(value: unknown): ArrayLike<number> {
  const array = value as ArrayLike<unknown>;
  return array.length === 1 && array[0] instanceof Float32Array ? array[0] : (value as ArrayLike<number>);
}

/**
 * Orama's schema validation (a `create()` component) that also accepts a {@link boxVector} box of
 * the declared size for vector properties; everything else is validated by Orama's own.
 */
export function boxedVectorValidation(vectorProps: Record<string, number>) {
  const base = components.validateSchema as (doc: Record<string, unknown>, schema: unknown) => string | undefined;
  return (doc: Record<string, unknown>, schema: unknown): string | undefined => {
    let boxed = false;
    for (const [prop, dims] of Object.entries(vectorProps)) {
      const value = doc[prop] as ArrayLike<unknown> | undefined;
      if (!Array.isArray(value) || value.length !== 1 || !(value[0] instanceof Float32Array)) continue;
      if (value[0].length !== dims) return prop;
      boxed = true;
    }
    if (!boxed) return base(doc, schema);
    const rest: Record<string, unknown> = {};
    for (const key in doc) if (!(key in vectorProps)) rest[key] = doc[key];
    return base(rest, schema);
  };
}

/** Orama's tokenizer component around an analyser (the same analysis for documents and queries). */
export function analyzerTokenizer(analyze: (text: string) => string[], language = 'english') {
  return {
    language,
    normalizationCache: new Map<string, string>(),
    tokenize(input: string): string[] {
      return typeof input === 'string' ? analyze(input) : [String(input)];
    },
  };
}

/** A documents store that keeps only the `keep` fields of each document. */
export function slimDocumentsStore(keep: readonly string[]) {
  const base = components.documentsStore.createDocumentsStore();
  return {
    ...base,
    store(store: Parameters<typeof base.store>[0], id: string, internalId: number, doc: Record<string, unknown>) {
      const slim: Record<string, unknown> = {};
      for (const key of keep) slim[key] = doc[key];
      return base.store(store, id, internalId, slim as never);
    },
  };
}
