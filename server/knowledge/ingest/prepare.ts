import { OFFLINE_DIMS, offlineEmbedMany } from '../../retrieval/embedding/offline-embedder';
import { chunkDocument, type Chunk, type ChunkSettings } from './chunk';
import { extract, type SourceFile } from './extract';

/** One file to turn into chunks (a plain object: it crosses to the worker thread). */
export interface PrepareJob {
  file: SourceFile;
  settings: ChunkSettings;
  /** PUT the file here for its text instead of the built-in extractors. */
  externalUrl?: string;
  /** Embed with the built-in offline embedder too (it is CPU work, so it runs here). */
  embedOffline: boolean;
}

/** Chunks of a file, and their offline vectors packed `chunks × 384` when asked for. */
export interface PrepareResult {
  chunks: Chunk[];
  vectors: Float32Array | null;
  dims: number;
}

/** Extract → chunk → (offline embed): the CPU-heavy part of ingestion, run in the worker. */
export async function prepare(job: PrepareJob): Promise<PrepareResult> {
  const doc = await extract(job.file, { externalUrl: job.externalUrl, wantHtml: job.settings.CHUNKING_STRATEGY === 'H' });
  const chunks = await chunkDocument(doc, job.settings, job.file.filename);
  const vectors = job.embedOffline ? offlineEmbedMany(chunks.map((c) => c.text)) : null;
  return { chunks, vectors, dims: OFFLINE_DIMS };
}
