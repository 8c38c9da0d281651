import type { FileRow, FilesService } from '../files';
import type { Clock } from '../platform/clock';
import { isWorkerFailure, workerFailureReason, type PrepareWorker } from './ingest/prepare-worker';
import type { PreviewResult } from './ingest/preview';
import type { Ingestion } from './ingest/ingestion';
import type { IngestJob } from './ingest/queue';
import type { CollectionFileRow, RetrievalRepo } from './retrieval.repo';
import type { RetrievalService } from './retrieval.service';

/** How much of a text-like file (text, HTML, CSV, JSON) a preview reads: its beginning. */
const PREVIEW_READ_BYTES = 2 * 1024 * 1024;

/** A file to put in a collection: the knowledge base it belongs to (null for a loose chat file) and who hears about its progress. */
export type CollectionFileEntry = IngestJob;

/** A file's place in a collection: its ingestion state and, when it failed, why. */
export interface FileState {
  status: string;
  error: string | null;
}

/** A stored chunk of a file, in document order. */
export interface FileChunk {
  seq: number;
  text: string;
  /** What is returned instead of `text` (the parent chunk), when there is one. */
  context: string | null;
  /** JSON text (page, headings). */
  meta: string;
}

/**
 * Files in collections, as other domains use them: retrieval owns "a file in a collection →
 * searchable chunks" from the moment a file is added (recorded `pending`, queued for ingestion)
 * to its removal (rows, chunks and index entries go). Progress is heard through
 * {@link onFileStatus}; finished files through {@link onFileIndexed}.
 */
export function createCollectionFiles(deps: { repo: RetrievalRepo; service: Pick<RetrievalService, 'forgetFile'>; ingestion: Ingestion; worker: Pick<PrepareWorker, 'preview' | 'limits'>; files: Pick<FilesService, 'pathOf'>; clock: Clock }) {
  const { repo, service, ingestion, clock } = deps;
  const row = (entry: CollectionFileEntry, now: number) => ({ collection_id: entry.collectionId, file_id: entry.fileId, knowledge_id: entry.knowledgeId, status: 'pending', created_at: now, updated_at: now });

  const files = {
    /**
     * Adds a file to a collection as `pending` and queues it for indexing (in the background).
     * False, with nothing changed, when it is there already and has not failed. The status of the
     * new entry is first told once the caller's continuation ran (the queue is a database away).
     */
    async addFile(entry: CollectionFileEntry): Promise<boolean> {
      if (!(await repo.putNewFile(row(entry, clock.now())))) return false;
      void ingestion.enqueue(entry);
      return true;
    },

    /** Makes sure a file is indexed in a collection (added and queued again when it failed), waiting for it. */
    async indexFile(entry: CollectionFileEntry): Promise<void> {
      const existing = await repo.findFile(entry.collectionId, entry.fileId);
      if (existing?.status === 'completed') return;
      if (existing && existing.status !== 'failed') return ingestion.settled(entry.collectionId, entry.fileId);
      await repo.putFile(row(entry, clock.now()));
      await ingestion.enqueue(entry);
    },

    /** Takes a file out of a collection: its row, chunks and index entries. False when it was not there. */
    async removeFile(collectionId: string, fileId: string): Promise<boolean> {
      const removed = await repo.removeFile(collectionId, fileId);
      await service.forgetFile(collectionId, fileId);
      return removed;
    },

    /** Takes a deleted file out of every collection it was in. */
    async fileDeleted(fileId: string): Promise<void> {
      for (const collectionId of await repo.collectionsOfFile(fileId)) await files.removeFile(collectionId, fileId);
    },

    /** A file's state in a collection, undefined when it is not there. */
    async fileStatus(collectionId: string, fileId: string): Promise<FileState | undefined> {
      const found = await repo.findFile(collectionId, fileId);
      return found && { status: found.status, error: found.error };
    },

    /** The files of a collection, oldest first. */
    filesOf: (collectionId: string): Promise<CollectionFileRow[]> => repo.filesOf(collectionId),

    /** Counts of the files of these collections that did not fail to ingest. */
    fileCounts: (collectionIds: readonly string[]): Promise<Map<string, number>> => repo.fileCounts(collectionIds),

    /** Every collection entry of these files (to clean up after them). */
    entriesOfFiles: (fileIds: readonly string[]) => repo.entriesOfFiles(fileIds),

    /** Which of these files belong to a knowledge base. */
    filesInKnowledge: (fileIds: readonly string[]): Promise<Set<string>> => repo.inKnowledge(fileIds),

    /** One file's stored chunks in a collection, in document order (the first `limit` when given). */
    chunksOf: (collectionId: string, fileId: string, limit?: number): Promise<FileChunk[]> => repo.chunksOfFile(collectionId, fileId, limit),

    /** How many chunks a file has in a collection. */
    chunkCount: (collectionId: string, fileId: string): Promise<number> => repo.chunkCount(collectionId, fileId),

    /**
     * The beginning (at most `maxChars`) of the text retrieval extracts from a stored file now (the
     * knowledge file preview), read on the ingestion worker under its limits from at most the
     * first 2 MB of a text-like file; `error` says why there is none.
     */
    async previewText(file: Pick<FileRow, 'id' | 'mime_type' | 'filename'>, maxChars: number): Promise<PreviewResult> {
      const job = { file: { path: deps.files.pathOf(file.id), mime: file.mime_type, filename: file.filename }, maxChars, readBytes: PREVIEW_READ_BYTES };
      try {
        return await deps.worker.preview(job);
      } catch (error) {
        return { text: null, error: isWorkerFailure(error) ? workerFailureReason(error, deps.worker.limits) : 'The text could not be extracted', truncated: false };
      }
    },

    /** Resolves when a file queued here is done (at once when it is not queued here). */
    settled: (collectionId: string, fileId: string): Promise<void> => ingestion.settled(collectionId, fileId),

    /** Registers work to do after a file is indexed (the knowledge graph). */
    onFileIndexed: ingestion.onFileIndexed,

    /** Hears every state and progress step of every file (file lists, realtime progress). */
    onFileStatus: ingestion.onFileStatus,
  };
  return files;
}
export type CollectionFiles = ReturnType<typeof createCollectionFiles>;
