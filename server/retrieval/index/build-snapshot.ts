import type { DatabaseLocation } from '../../platform/db/knex';
import { buildIndex, type BuildProgress, type BuildRequest } from './build-index';
import { encodeSnapshot, snapshotBytes, writeEncodedSnapshot } from './snapshot';
import type { RetrievalRepo } from '../retrieval.repo';

/** A message to the index builder thread. */
export type BuilderMessage =
  | {
      type: 'build';
      id: number;
      database: DatabaseLocation;
      request: BuildRequest;
      /** Write the snapshot here when the collection did not change while it was read. */
      file?: string;
      /** Send the encoded snapshot back (a rebuild); without, only write it (a save). */
      handOver: boolean;
    }
  | { type: 'close'; id: number };

/** What a build answers: the snapshot's bytes when asked for, and whether the file was written. */
export interface BuildReply {
  bytes?: Uint8Array;
  written: boolean;
}

/**
 * Builds a collection's index from the database and encodes it as a snapshot (runs on the index
 * builder thread). The file is written only when the collection's fingerprint was the same
 * before and after reading it, so a snapshot never claims contents it does not hold.
 */
export async function buildSnapshot(repo: Pick<RetrievalRepo, 'fingerprint' | 'chunksAfter'>, message: Extract<BuilderMessage, { type: 'build' }>, progress: BuildProgress): Promise<BuildReply> {
  const { request } = message;
  const before = await repo.fingerprint(request.collectionId);
  const index = await buildIndex(repo, request, { total: before.count, progress });
  const after = await repo.fingerprint(request.collectionId);
  const unchanged = before.count === after.count && before.maxId === after.maxId && before.sumId === after.sumId && index.count === after.count;
  const encoded = encodeSnapshot(index, { ...after, model: request.model, language: request.language });
  let written = false;
  if (message.file && unchanged) {
    await writeEncodedSnapshot(message.file, encoded);
    written = true;
  }
  return { bytes: message.handOver ? snapshotBytes(encoded) : undefined, written };
}
