import { create, insertMultiple, load, save, search, type AnyOrama, type RawData } from '@orama/orama';
import type { IndexInput, IndexQuery } from '../../server/retrieval/index/collection-index';
import { STOP_WORDS } from '../../server/retrieval/analysis/text-analysis';

/** A hit as the comparison reads it. */
export interface OramaHit {
  id: number;
  fileId: string;
  score: number;
}

/** Rows inserted per `insertMultiple` call. */
const INSERT_BATCH = 1000;

/**
 * The same chunks in Orama 3 (full-text + vector fields), configured as fairly as Orama allows:
 * English stemming, our stop words, `similarity` lowered to 0.1 (its 0.8 default drops most real
 * matches) and `hybridWeights` from the blend weight. Not used by the service: bench/retrieval/orama.ts
 * loads it next to {@link CollectionIndex} to show, in one run, why the service keeps its own index
 * (see CONTEXT.md). Vectors are inserted as copies (Orama keeps inserted objects by reference and
 * nulls their vector field in results).
 */
export class OramaIndex {
  private constructor(
    private readonly db: AnyOrama,
    readonly dims: number,
  ) {}

  private static empty(dims: number): AnyOrama {
    return create({
      schema: { text: 'string', fileId: 'string', chunkId: 'number', embedding: `vector[${dims}]` } as const,
      components: { tokenizer: { language: 'english', stemming: true, stopWords: [...STOP_WORDS] } },
    }) as AnyOrama;
  }

  /** A new index holding `chunks`. */
  static async build(dims: number, chunks: readonly IndexInput[]): Promise<OramaIndex> {
    const index = new OramaIndex(OramaIndex.empty(dims), dims);
    await index.add(chunks);
    return index;
  }

  /** Inserts chunks (vectors copied). */
  async add(chunks: readonly IndexInput[]): Promise<void> {
    for (let i = 0; i < chunks.length; i += INSERT_BATCH) {
      const docs = chunks.slice(i, i + INSERT_BATCH).map((c) => ({ id: String(c.id), text: c.text, fileId: c.fileId, chunkId: c.id, embedding: c.vector ? Array.from(c.vector) : undefined }));
      await insertMultiple(this.db, docs as never[], INSERT_BATCH);
    }
  }

  /** Full-text, vector or hybrid search, best first. */
  async search(query: Pick<IndexQuery, 'text' | 'vector' | 'mode' | 'weight' | 'limit'>): Promise<OramaHit[]> {
    const vector = query.vector ? { value: Array.from(query.vector), property: 'embedding' } : undefined;
    const common = { limit: query.limit, similarity: 0.1 };
    const params =
      query.mode === 'text'
        ? { term: query.text, properties: ['text'], limit: query.limit }
        : query.mode === 'vector'
          ? { mode: 'vector', vector, ...common }
          : { mode: 'hybrid', term: query.text, properties: ['text'], vector, hybridWeights: { text: query.weight, vector: 1 - query.weight }, ...common };
    const result = (await search(this.db, params as never)) as { hits: Array<{ score: number; document: { chunkId: number; fileId: string } }> };
    return result.hits.map((h) => ({ id: h.document.chunkId, fileId: h.document.fileId, score: h.score }));
  }

  /** Orama's own serialisation as JSON text: what its persistence plugin writes to disk. */
  snapshot(): string {
    return JSON.stringify(save(this.db));
  }

  /** An index restored from {@link snapshot}. */
  static restore(dims: number, json: string): OramaIndex {
    const db = OramaIndex.empty(dims);
    load(db, JSON.parse(json) as RawData);
    return new OramaIndex(db, dims);
  }
}
