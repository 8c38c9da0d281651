import { OFFLINE_DIMS, offlineEmbedTerms } from '../embedding/offline-embedder';
import { packTerms, type PackedTerms } from '../analysis/packed-terms';
import { analyzerFor, DEFAULT_LANGUAGE, detectLanguage, isLanguage, type Language } from '../analysis/languages';
import { analyze } from '../analysis/text-analysis';
import { chunkDocument, type ChunkSettings } from './chunk';
import { extract, type SourceFile } from './extract';
import { IngestError } from './extraction-error';
import { packChunks, type PackedChunks } from './packed-chunks';

/** One file to turn into chunks (a plain object: it crosses to the worker thread). */
export interface PrepareJob {
  file: SourceFile;
  settings: ChunkSettings;
  /** PUT the file here for its text instead of the built-in extractors. */
  externalUrl?: string;
  /** Embed with the built-in offline embedder too (it is CPU work, so it runs here). */
  embedOffline: boolean;
  /** The collection's analysis language; detected from the file when it has none yet. */
  language?: string;
}

/** Chunks of a file, their analysed terms, and their offline vectors packed `chunks × 384` when asked for. */
export interface PrepareResult {
  chunks: PackedChunks;
  vectors: Float32Array | null;
  dims: number;
  /** Each chunk's index terms (the same analysis the search index applies). */
  terms: PackedTerms;
  /** The language the terms were analysed in (the collection's, or the one detected). */
  language: Language;
}

/** A file's outcome in a batch: its result, or why it failed (`reason`: a message for the user). */
export type PrepareOutcome = { ok: true; result: PrepareResult } | { ok: false; error: string; reason: boolean };

/** Extract → chunk → analyse → (offline embed): the CPU-heavy part of ingestion, run in the worker. */
export async function prepare(job: PrepareJob): Promise<PrepareResult> {
  const doc = await extract(job.file, { externalUrl: job.externalUrl, wantHtml: job.settings.CHUNKING_STRATEGY === 'H' });
  const chunks = await chunkDocument(doc, job.settings, job.file.filename);
  const language = isLanguage(job.language) ? job.language : (detectLanguage(chunks.map((c) => c.text).join('\n').slice(0, 4000)) ?? DEFAULT_LANGUAGE);
  const analyzer = analyzerFor(language);
  const lists = chunks.map((c) => analyzer(c.text));
  let vectors: Float32Array | null = null;
  if (job.embedOffline) {
    // The offline embedder reads the shared analyser's terms (queries are embedded the same way, whatever the language).
    const embedLists = analyzer === analyze ? lists : chunks.map((c) => analyze(c.text));
    vectors = new Float32Array(chunks.length * OFFLINE_DIMS);
    embedLists.forEach((terms, i) => offlineEmbedTerms(terms, vectors!.subarray(i * OFFLINE_DIMS, (i + 1) * OFFLINE_DIMS)));
  }
  return { chunks: packChunks(chunks), vectors, dims: OFFLINE_DIMS, terms: packTerms(lists), language };
}

/** Prepares several files, one after another; one file failing does not fail the others. */
export async function prepareMany(jobs: readonly PrepareJob[]): Promise<PrepareOutcome[]> {
  const out: PrepareOutcome[] = [];
  for (const job of jobs) {
    try {
      out.push({ ok: true, result: await prepare(job) });
    } catch (error) {
      out.push({ ok: false, error: error instanceof Error ? error.message : String(error), reason: error instanceof IngestError });
    }
  }
  return out;
}

/** The buffers of a batch's results, moved (not copied) to the other thread. */
export function transferables(outcomes: readonly PrepareOutcome[]): ArrayBuffer[] {
  const buffers: ArrayBuffer[] = [];
  for (const outcome of outcomes) {
    if (!outcome.ok) continue;
    const { vectors, terms, chunks } = outcome.result;
    if (vectors) buffers.push(vectors.buffer as ArrayBuffer);
    buffers.push(terms.ids.buffer as ArrayBuffer, terms.offsets.buffer as ArrayBuffer, chunks.ends.buffer as ArrayBuffer, chunks.withContext.buffer as ArrayBuffer);
  }
  return buffers;
}
