import { randomBytes } from 'node:crypto';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import v8 from 'node:v8';
import { threadId } from 'node:worker_threads';
import { save, type RawData } from '@orama/orama';
import { CollectionIndex } from './collection-index';
import { isLanguage, type Language } from '../analysis/languages';
import { SimdVectorIndex, type RawVectors } from './simd-vector-index';
import type { TextPostings } from './text-postings';
import type { Breathe } from '../../platform/breather';

const MAGIC = 0x58444950; // "PIDX"
/**
 * 4: Orama's `save()` data split into sections: the object parts that stay small (the fileId
 * where-filter index, settings) v8-serialised; the per-document parts as typed arrays (chunk id
 * and file of each internal id, the BM25 postings); the vectors last as raw float32 bytes. Every
 * large part is a flat array, so restoring never decodes 100k objects in one go.
 */
const VERSION = 4;

/** What the database says a collection holds; a snapshot taken from other contents is stale. */
export interface CollectionFingerprint {
  count: number;
  maxId: number;
  sumId: number;
  model: string;
  /** The analysis language (an index analysed in another language is stale). */
  language: string;
}

/** The typed-array sections of a snapshot, in file order (vectors come after them). */
const SECTIONS = ['rest', 'ids', 'fileOf', 'termBytes', 'offsets', 'docs', 'tfs', 'docLen', 'textAlive', 'vectorAlive'] as const;
type Section = (typeof SECTIONS)[number];

interface Header {
  dims: number;
  model: string;
  fingerprint: CollectionFingerprint;
  /** Byte length of each section. */
  sections: Record<Section, number>;
  /** Vector slots written (0 without a vector property). */
  slots: number;
}

/** The v8-serialised section: what is left of Orama's save() data once the large parts are out. */
interface Rest {
  index: { indexes: Record<string, unknown>; vectorIndexes: Record<string, unknown> };
  docsCount: number;
  sorting: RawData['sorting'];
  pinning: RawData['pinning'];
  language: RawData['language'];
  files: string[];
  text: { max: number; totalLen: number; count: number } | null;
}

const pad16 = (n: number) => Math.ceil(n / 16) * 16;

/** Byte positions of each section, from the header alone. */
function layout(headerLength: number, header: Pick<Header, 'sections' | 'slots' | 'dims'>) {
  const at = {} as Record<Section, number>;
  let position = pad16(12 + headerLength);
  for (const name of SECTIONS) {
    at[name] = position;
    position = pad16(position + header.sections[name]);
  }
  return { at, vectorsAt: position, end: position + header.slots * header.dims * 4 };
}

const bytesOf = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
const PARLEY_TEXT = 'ParleyBM25';

/** A snapshot ready to write: its parts at their positions (views, nothing copied) and its length. */
export interface EncodedSnapshot {
  parts: Array<[number, Uint8Array]>;
  end: number;
}

/**
 * Splits an index into the snapshot's parts: Orama's `save()` data with the per-document parts
 * turned into typed arrays. The vectors part is a view of the live vector store (write it before
 * the index changes, or copy it).
 */
export function encodeSnapshot(index: CollectionIndex, fingerprint: CollectionFingerprint): EncodedSnapshot {
  type SavedIndex = RawData['index'] & { indexes: Record<string, { type: string; node: unknown; isArray: boolean }>; vectorIndexes: Record<string, RawVectors> };
  const raw = save(index.db) as RawData & { index: SavedIndex; internalDocumentIDStore: { internalIdToId: string[] }; docs: { docs: Record<string, { fileId: string } | undefined>; count: number } };
  const vectors = raw.index.vectorIndexes.embedding;
  const textEntry = raw.index.indexes.text;
  const text = textEntry?.type === PARLEY_TEXT ? (textEntry.node as ReturnType<TextPostings['toJSON']>) : null;
  const { text: _text, ...plainIndexes } = raw.index.indexes;
  // The fileId where-filter index (file → internal ids) is rebuilt from `fileOf` on restore.
  if (plainIndexes.fileId?.type === 'Flat') plainIndexes.fileId = { ...plainIndexes.fileId, node: { numberToDocumentId: [] } };
  const internalIdToId = raw.internalDocumentIDStore.internalIdToId;
  const ids = new Float64Array(internalIdToId.length);
  for (let i = 0; i < ids.length; i += 1) ids[i] = Number(internalIdToId[i]);
  const files: string[] = [];
  const fileNumbers = new Map<string, number>();
  const fileOf = new Int32Array(ids.length).fill(-1);
  for (const [internalId, doc] of Object.entries(raw.docs.docs)) {
    if (!doc) continue;
    let n = fileNumbers.get(doc.fileId);
    if (n === undefined) {
      n = files.length;
      files.push(doc.fileId);
      fileNumbers.set(doc.fileId, n);
    }
    fileOf[Number(internalId) - 1] = n;
  }
  const rest: Rest = {
    index: { ...raw.index, indexes: plainIndexes, vectorIndexes: {} },
    docsCount: raw.docs.count,
    sorting: raw.sorting,
    pinning: raw.pinning,
    language: raw.language,
    files,
    text: text ? { max: text.max, totalLen: text.totalLen, count: text.count } : null,
  };
  const empty = new Uint8Array(0);
  const data: Record<Section, Uint8Array> = {
    rest: v8.serialize(rest),
    ids: bytesOf(ids),
    fileOf: bytesOf(fileOf),
    termBytes: text ? text.packed.termBytes : empty,
    offsets: text ? bytesOf(text.packed.offsets) : empty,
    docs: text ? bytesOf(text.packed.docs) : empty,
    tfs: text ? bytesOf(text.packed.tfs) : empty,
    docLen: text ? bytesOf(text.docLen) : empty,
    textAlive: text ? text.alive : empty,
    vectorAlive: vectors ? vectors.alive : empty,
  };
  const header: Header = { dims: index.dims, model: index.model, fingerprint, slots: vectors?.max ?? 0, sections: Object.fromEntries(SECTIONS.map((s) => [s, data[s].length])) as Record<Section, number> };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const prefix = Buffer.alloc(12);
  prefix.writeUInt32LE(MAGIC, 0);
  prefix.writeUInt32LE(VERSION, 4);
  prefix.writeUInt32LE(headerBytes.length, 8);
  const places = layout(headerBytes.length, header);
  const parts: Array<[number, Uint8Array]> = [
    [0, prefix],
    [12, headerBytes],
  ];
  for (const name of SECTIONS) if (data[name].length > 0) parts.push([places.at[name], data[name]]);
  if (vectors && vectors.vectors.length > 0) parts.push([places.vectorsAt, bytesOf(vectors.vectors)]);
  return { parts, end: places.end };
}

/** The whole snapshot in one buffer (a worker hands it over as a transferable). */
export function snapshotBytes(encoded: EncodedSnapshot): Uint8Array {
  const out = new Uint8Array(new ArrayBuffer(encoded.end));
  for (const [position, bytes] of encoded.parts) out.set(bytes, position);
  return out;
}

/**
 * Writes encoded parts to a temp file, syncs it and renames it over `file`, so a crash never
 * leaves half a file. The temp name is the writer's own (process, thread, random): the service's
 * thread, its index builder and other instances saving the same collection into a shared folder
 * never write into the same file; each renames a whole file into place and the last rename wins.
 */
export async function writeEncodedSnapshot(file: string, encoded: EncodedSnapshot): Promise<void> {
  const temp = `${file}.${process.pid}-${threadId}-${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temp, 'w');
  try {
    try {
      for (const [position, bytes] of encoded.parts) if (bytes.length > 0) await handle.write(bytes, 0, bytes.length, position);
      await handle.truncate(encoded.end);
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
 * Writes a collection as one binary file (see {@link VERSION}). The vectors are written straight
 * from the vector store's memory, so the index must not change until this resolves.
 */
export async function writeSnapshot(file: string, index: CollectionIndex, fingerprint: CollectionFingerprint): Promise<void> {
  await writeEncodedSnapshot(file, encodeSnapshot(index, fingerprint));
}

const noBreath: Breathe = async () => undefined;

/** Items handled between two {@link Breathe} checks (a few milliseconds of work). */
const RESTORE_SLICE = 4096;

/** Where the parts of a snapshot come from: a file being read, or a buffer handed over. */
interface SnapshotSource {
  size: number;
  /** The bytes at `position` in place, when the source is in memory already (nothing copied). */
  view?(position: number, length: number): Uint8Array | undefined;
  /** Fills `target` from `position`; false at a short source. */
  read(target: Uint8Array, position: number): Promise<boolean>;
}

/** Reads exactly `target.length` bytes at `position`; false at a short file. */
function fileSource(handle: FileHandle, size: number): SnapshotSource {
  return {
    size,
    async read(target, position) {
      let done = 0;
      while (done < target.length) {
        const { bytesRead } = await handle.read(target, done, Math.min(target.length - done, 1 << 30), position + done);
        if (bytesRead === 0) return false;
        done += bytesRead;
      }
      return true;
    },
  };
}

/** A buffer as a source; large copies go in slices, with `breathe` between them. */
function bufferSource(bytes: Uint8Array, breathe: Breathe): SnapshotSource {
  const SLICE = 2 << 20;
  return {
    size: bytes.length,
    view: (position, length) => (position + length <= bytes.length ? bytes.subarray(position, position + length) : undefined),
    async read(target, position) {
      if (position + target.length > bytes.length) return false;
      for (let done = 0; done < target.length; done += SLICE) {
        const n = Math.min(SLICE, target.length - done);
        target.set(bytes.subarray(position + done, position + done + n), done);
        await breathe();
      }
      return true;
    },
  };
}

/** The typed array of a section, aligned (sections start on 16-byte boundaries of a fresh buffer). */
function view<T>(Kind: { new (buffer: ArrayBuffer, offset: number, length: number): T; BYTES_PER_ELEMENT: number }, all: Uint8Array, start: number, bytes: number): T {
  return new Kind(all.buffer as ArrayBuffer, all.byteOffset + start, bytes / Kind.BYTES_PER_ELEMENT);
}

/**
 * Restores a snapshot through Orama's `load()`; undefined when it is damaged, of another version,
 * stale (told by its header alone, before anything large is read) or of other dimensions than
 * `dims` (when given). Per-document parts are rebuilt in slices with `breathe` between them, and
 * the vectors are read straight into the SIMD store, so no single step holds the event loop long.
 */
async function restoreFrom(source: SnapshotSource, expected: CollectionFingerprint | undefined, dims: number | undefined, breathe: Breathe): Promise<CollectionIndex | undefined> {
  const prefix = new Uint8Array(12);
  if (!(await source.read(prefix, 0))) return undefined;
  const prefixView = new DataView(prefix.buffer);
  if (prefixView.getUint32(0, true) !== MAGIC || prefixView.getUint32(4, true) !== VERSION) return undefined;
  const headerLength = prefixView.getUint32(8, true);
  if (12 + headerLength > source.size) return undefined;
  const headerBytes = new Uint8Array(headerLength);
  if (!(await source.read(headerBytes, 12))) return undefined;
  const header = JSON.parse(Buffer.from(headerBytes).toString('utf8')) as Header;
  const f = header.fingerprint;
  if (expected && (f.count !== expected.count || f.maxId !== expected.maxId || f.sumId !== expected.sumId || f.model !== expected.model || f.language !== expected.language)) return undefined;
  if (!isLanguage(f.language)) return undefined;
  if (dims !== undefined && header.dims !== dims && f.count > 0) return undefined;
  const places = layout(headerLength, header);
  if (places.end !== source.size) return undefined;
  // Every section but the vectors, in one fresh (aligned) buffer.
  const sectionsAt = places.at.rest;
  let sections = source.view?.(sectionsAt, places.vectorsAt - sectionsAt);
  if (!sections) {
    sections = new Uint8Array(places.vectorsAt - sectionsAt);
    if (!(await source.read(sections, sectionsAt))) return undefined;
  }
  const part = <T>(Kind: { new (buffer: ArrayBuffer, offset: number, length: number): T; BYTES_PER_ELEMENT: number }, name: Section) => view(Kind, sections, places.at[name] - sectionsAt, header.sections[name]);
  const rest = v8.deserialize(part(Uint8Array, 'rest')) as Rest;
  await breathe();

  // Orama's internal id store and documents store, rebuilt from the flat arrays in slices (the
  // id store the way its own load() fills it).
  const ids = part(Float64Array, 'ids');
  const fileOf = part(Int32Array, 'fileOf');
  const internalIdToId: string[] = new Array<string>(ids.length);
  const idToInternalId = new Map<string, number>();
  const docs: Record<number, { fileId: string }> = {};
  const files = new Map<string, number[]>();
  const internalIdsOf = new Map<string, number[]>();
  for (let start = 0; start < ids.length; start += RESTORE_SLICE) {
    const end = Math.min(ids.length, start + RESTORE_SLICE);
    for (let i = start; i < end; i += 1) {
      const id = String(ids[i]);
      internalIdToId[i] = id;
      idToInternalId.set(id, i + 1);
      const n = fileOf[i]!;
      if (n < 0) continue;
      const fileId = rest.files[n]!;
      docs[i + 1] = { fileId };
      const list = files.get(fileId);
      if (list) {
        list.push(ids[i]!);
        internalIdsOf.get(fileId)!.push(i + 1);
      } else {
        files.set(fileId, [ids[i]!]);
        internalIdsOf.set(fileId, [i + 1]);
      }
    }
    await breathe();
  }

  const indexes = rest.index.indexes;
  if (rest.text) {
    indexes.text = {
      type: PARLEY_TEXT,
      isArray: false,
      node: {
        packed: { termBytes: part(Uint8Array, 'termBytes'), offsets: part(Uint32Array, 'offsets'), docs: part(Int32Array, 'docs'), tfs: part(Uint16Array, 'tfs') },
        docLen: part(Uint32Array, 'docLen'),
        alive: part(Uint8Array, 'textAlive'),
        ...rest.text,
      },
    };
  }
  if (header.dims > 0) {
    const { index, view: target } = await SimdVectorIndex.reserveGradually(header.dims, header.slots, part(Uint8Array, 'vectorAlive'), breathe);
    const VECTOR_SLICE = 8 << 20;
    const bytes = bytesOf(target);
    for (let done = 0; done < bytes.length; done += VECTOR_SLICE) {
      if (!(await source.read(bytes.subarray(done, Math.min(bytes.length, done + VECTOR_SLICE)), places.vectorsAt + done))) return undefined;
    }
    rest.index.vectorIndexes = { embedding: index };
  }
  // Orama's load(), one component at a time with the event loop handed back in between; the
  // internal id store is the one filled above.
  const { db, control } = CollectionIndex.createDb(header.dims, f.language as Language);
  db.internalDocumentIDStore.load(db, { internalIdToId: [] });
  db.internalDocumentIDStore.internalIdToId = internalIdToId;
  db.internalDocumentIDStore.idToInternalId = idToInternalId;
  await breathe();
  db.data.index = db.index.load(db.internalDocumentIDStore, rest.index as RawData['index']);
  await breathe();
  const fileFilter = ((db.data.index as unknown as { indexes: unknown }).indexes as Record<string, { type: string; node: { numberToDocumentId: Map<string, Set<number>> } } | undefined>).fileId;
  if (fileFilter?.type === 'Flat') {
    let done = 0;
    for (const [fileId, internalIds] of internalIdsOf) {
      fileFilter.node.numberToDocumentId.set(fileId, new Set(internalIds));
      done += internalIds.length;
      if (done >= RESTORE_SLICE) {
        done = 0;
        await breathe();
      }
    }
  }
  db.data.docs = db.documentsStore.load(db.internalDocumentIDStore, { docs, count: rest.docsCount });
  db.data.sorting = db.sorter.load(db.internalDocumentIDStore, rest.sorting);
  db.data.pinning = db.pinning.load(db.internalDocumentIDStore, rest.pinning);
  db.tokenizer.language = rest.language;
  return CollectionIndex.restored(header.dims, header.model, f.language as Language, db, control, files);
}

/**
 * Reads a snapshot file back (see {@link restoreFrom}); undefined when the file is missing,
 * damaged, of another version, stale or of other dimensions.
 */
export async function readSnapshot(file: string, expected: CollectionFingerprint, dims?: number, breathe: Breathe = noBreath): Promise<CollectionIndex | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const { size } = await handle.stat();
    return await restoreFrom(fileSource(handle, size), expected, dims, breathe);
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

/** Restores a snapshot handed over in one buffer (from the index builder); undefined when damaged. */
export async function restoreSnapshotBytes(bytes: Uint8Array, dims?: number, breathe: Breathe = noBreath): Promise<CollectionIndex | undefined> {
  try {
    return await restoreFrom(bufferSource(bytes, breathe), undefined, dims, breathe);
  } catch {
    return undefined;
  }
}

/** Removes a snapshot (ignores a missing one). */
export async function removeSnapshot(file: string): Promise<void> {
  await rm(file, { force: true });
}

/** The names writeSnapshot's temp files take (`<collection>.idx.<pid>-<thread>-<12 hex>.tmp`); a crashed write's are swept at start (snapshot-temps.ts). */
export const SNAPSHOT_TEMP_NAME = /\.idx\.\d+-\d+-[0-9a-f]{12}\.tmp$/;
