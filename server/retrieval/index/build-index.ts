import { vectorOf } from '../embedding/vector-blob';
import { CollectionIndex } from './collection-index';
import type { Breathe } from '../../platform/breather';
import type { Language } from '../analysis/languages';
import type { IndexChunkRow, RetrievalRepo } from '../retrieval.repo';

/** What to build: a collection's chunks, with the vectors of `model`, analysed in `language`. */
export interface BuildRequest {
  collectionId: string;
  model: string;
  /** The embedder's dimensions when known (else taken from the first stored vector of `model`). */
  dims?: number;
  language: Language;
}

/** Reports a build's progress: chunks indexed so far of all. */
export type BuildProgress = (done: number, total: number) => void;

/** Rows fetched per page while building an index from the database. */
const PAGE = 1000;
/** Rows indexed between two `breathe` checks (a few milliseconds of work). */
const SLICE = 32;

/**
 * Builds a collection's index from its stored chunks, page by page in id order. Vectors of
 * another model than the request's are left out (they cannot be compared with its query vectors).
 * On the service's own thread `breathe` hands the event loop back between slices; on the index
 * builder's worker there is nothing to hand back.
 */
export async function buildIndex(repo: Pick<RetrievalRepo, 'chunksAfter'>, request: BuildRequest, options: { total?: number; progress?: BuildProgress; breathe?: Breathe } = {}): Promise<CollectionIndex> {
  const { model, dims, language } = request;
  let done = 0;
  let index: CollectionIndex | undefined;
  let afterId = 0;
  for (;;) {
    const rows: IndexChunkRow[] = await repo.chunksAfter(request.collectionId, afterId, PAGE);
    if (rows.length === 0) break;
    afterId = rows[rows.length - 1]!.id;
    if (!index) {
      const sample = rows.filter((r) => r.model === model).map((r) => vectorOf(r.embedding)).find((v) => v !== null);
      index = CollectionIndex.empty(dims ?? sample?.length ?? 0, model, language);
    }
    const slice = options.breathe ? SLICE : rows.length;
    for (let i = 0; i < rows.length; i += slice) {
      index.add(rows.slice(i, i + slice).map((r) => ({ id: Number(r.id), fileId: r.file_id, text: r.text, vector: r.model === model ? vectorOf(r.embedding) : null })));
      await options.breathe?.();
    }
    done += rows.length;
    options.progress?.(done, options.total ?? done);
  }
  return index ?? CollectionIndex.empty(dims ?? 0, model, language);
}
