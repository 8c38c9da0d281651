import { randomBytes } from 'node:crypto';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import v8 from 'node:v8';
import { load, save, type RawData } from '@orama/orama';
import { CollectionIndex } from './collection-index';
import { isLanguage } from './languages';
import { SimdVectorIndex, type RawVectors } from './orama-components';

const MAGIC = 0x58444950; // "PIDX"
/** 3: Orama's save() data (v8-serialised) followed by the vectors as raw float32 bytes. */
const VERSION = 3;

/** What the database says a collection holds; a snapshot taken from other contents is stale. */
export interface CollectionFingerprint {
  count: number;
  maxId: number;
  sumId: number;
  model: string;
  /** The analysis language (an index analysed in another language is stale). */
  language: string;
}

interface Header {
  dims: number;
  model: string;
  fingerprint: CollectionFingerprint;
  /** Bytes of the v8-serialised save() data. */
  dataBytes: number;
  /** Vector slots written (0 without a vector property). */
  slots: number;
}

const pad16 = (n: number) => Math.ceil(n / 16) * 16;

/** Byte positions of each part, from the header alone. */
function layout(headerLength: number, header: Pick<Header, 'dataBytes' | 'slots' | 'dims'>) {
  const dataAt = 12 + headerLength;
  const aliveAt = dataAt + header.dataBytes;
  const vectorsAt = pad16(aliveAt + header.slots);
  return { dataAt, aliveAt, vectorsAt, end: vectorsAt + header.slots * header.dims * 4 };
}

/** Reads exactly `target.length` bytes at `position`; false at a short file. */
async function readFully(handle: FileHandle, target: Uint8Array, position: number): Promise<boolean> {
  let done = 0;
  while (done < target.length) {
    const { bytesRead } = await handle.read(target, done, Math.min(target.length - done, 1 << 30), position + done);
    if (bytesRead === 0) return false;
    done += bytesRead;
  }
  return true;
}

const bytesOf = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/**
 * Writes a collection as one binary file: a small JSON header, Orama's `save()` data serialised
 * with v8 (typed arrays stay binary), then the vectors as raw float32 bytes. Written to a temp
 * file of the writer's own and renamed, so a crash never leaves half a file and two writers never mix.
 */
export async function writeSnapshot(file: string, index: CollectionIndex, fingerprint: CollectionFingerprint): Promise<void> {
  const raw = save(index.db) as RawData & { index: { vectorIndexes: Record<string, RawVectors> } };
  const vectors = raw.index.vectorIndexes.embedding;
  const data = v8.serialize({ ...raw, index: { ...raw.index, vectorIndexes: {} } });
  const header: Header = { dims: index.dims, model: index.model, fingerprint, dataBytes: data.length, slots: vectors?.max ?? 0 };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const prefix = Buffer.alloc(12);
  prefix.writeUInt32LE(MAGIC, 0);
  prefix.writeUInt32LE(VERSION, 4);
  prefix.writeUInt32LE(headerBytes.length, 8);
  const places = layout(headerBytes.length, header);
  const parts: Array<[number, Uint8Array]> = [
    [0, prefix],
    [12, headerBytes],
    [places.dataAt, data],
  ];
  if (vectors) parts.push([places.aliveAt, bytesOf(vectors.alive)], [places.vectorsAt, bytesOf(vectors.vectors)]);
  // A temp name of this writer's own: two instances saving the same collection into a shared
  // folder each rename a whole file into place, and the last rename wins.
  const temp = `${file}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temp, 'w');
  try {
    try {
      for (const [position, bytes] of parts) if (bytes.length > 0) await handle.write(bytes, 0, bytes.length, position);
      await handle.truncate(places.end);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/**
 * Reads a snapshot back through Orama's `load()`; undefined when the file is missing, damaged,
 * of another version, stale (told by its header alone, before anything large is read) or of
 * other dimensions than `dims` (when given). The vectors are read straight into the SIMD store.
 */
export async function readSnapshot(file: string, expected: CollectionFingerprint, dims?: number): Promise<CollectionIndex | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const { size: fileSize } = await handle.stat();
    const prefix = Buffer.alloc(12);
    if (!(await readFully(handle, prefix, 0)) || prefix.readUInt32LE(0) !== MAGIC || prefix.readUInt32LE(4) !== VERSION) return undefined;
    const headerLength = prefix.readUInt32LE(8);
    if (12 + headerLength > fileSize) return undefined;
    const headerBytes = Buffer.alloc(headerLength);
    if (!(await readFully(handle, headerBytes, 12))) return undefined;
    const header = JSON.parse(headerBytes.toString('utf8')) as Header;
    const f = header.fingerprint;
    if (f.count !== expected.count || f.maxId !== expected.maxId || f.sumId !== expected.sumId || f.model !== expected.model || f.language !== expected.language || !isLanguage(f.language)) return undefined;
    if (dims !== undefined && header.dims !== dims && f.count > 0) return undefined;
    const places = layout(headerLength, header);
    if (places.end !== fileSize) return undefined;
    const data = Buffer.alloc(header.dataBytes);
    if (!(await readFully(handle, data, places.dataAt))) return undefined;
    const raw = v8.deserialize(data) as RawData & { index: { vectorIndexes: Record<string, unknown> } };
    if (header.dims > 0) {
      const alive = new Uint8Array(header.slots);
      if (!(await readFully(handle, alive, places.aliveAt))) return undefined;
      const { index, view } = SimdVectorIndex.reserve(header.dims, header.slots, alive);
      if (!(await readFully(handle, bytesOf(view), places.vectorsAt))) return undefined;
      raw.index.vectorIndexes = { embedding: index };
    }
    const { db, control } = CollectionIndex.createDb(header.dims, f.language);
    load(db, raw);
    return CollectionIndex.restored(header.dims, header.model, f.language, db, control);
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

/** Removes a snapshot (ignores a missing one). */
export async function removeSnapshot(file: string): Promise<void> {
  await rm(file, { force: true });
}

/** The names writeSnapshot's temp files take (`<collection>.idx.<pid>-<12 hex>.tmp`); a crashed write's are swept at start (snapshot-temps.ts). */
export const SNAPSHOT_TEMP_NAME = /\.idx\.\d+-[0-9a-f]{12}\.tmp$/;
