import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import type { IndexState } from './hybrid-index';

const MAGIC = 0x58444950; // "PIDX"
/** 2: sorted vocabulary (binary search, no decoding at restore) and the vectors last. */
const VERSION = 2;

/** What the database says a collection holds; a snapshot taken from other contents is stale. */
export interface CollectionFingerprint {
  count: number;
  maxId: number;
  sumId: number;
  model: string;
}

type ArrayName = 'chunkIds' | 'fileOf' | 'alive' | 'docLen' | 'hasVector' | 'offsets' | 'docs' | 'tfs';
type ArrayType = new (buffer: ArrayBuffer, offset: number, length: number) => ArrayBufferView;
/** The arrays between the vocabulary and the vectors, in file order. */
const ARRAYS: ReadonlyArray<readonly [ArrayName, ArrayType]> = [
  ['chunkIds', Float64Array],
  ['fileOf', Int32Array],
  ['alive', Uint8Array],
  ['docLen', Uint32Array],
  ['hasVector', Uint8Array],
  ['offsets', Uint32Array],
  ['docs', Int32Array],
  ['tfs', Uint16Array],
];

interface Header {
  dims: number;
  model: string;
  size: number;
  files: string[];
  fingerprint: CollectionFingerprint;
  termsBytes: number;
  lengths: Record<ArrayName, number>;
}

/** Gives the memory a snapshot's vectors are read into (`size × dims` floats), or undefined to refuse the snapshot. */
export type VectorTarget = (header: { dims: number; model: string; size: number }) => Float32Array | undefined;

const pad8 = (n: number) => Math.ceil(n / 8) * 8;

/** Byte positions of each part, from the header alone. */
function layout(headerLength: number, header: Pick<Header, 'termsBytes' | 'lengths' | 'size' | 'dims'>) {
  const termsAt = pad8(12 + headerLength);
  let offset = termsAt + header.termsBytes;
  const at = {} as Record<ArrayName, number>;
  for (const [name, Type] of ARRAYS) {
    offset = pad8(offset);
    at[name] = offset;
    offset += header.lengths[name] * (Type as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
  }
  const vectorsAt = pad8(offset);
  return { termsAt, at, vectorsAt, end: vectorsAt + header.size * header.dims * 4 };
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

/**
 * Writes an index as one binary file: a small JSON header, the vocabulary, each typed array raw
 * and 8-byte aligned, and the vectors last. Restoring is three reads and a few views (no parsing
 * of numbers, no re-analysis of text, no copy of the vectors). Written to a temp file and
 * renamed, so a crash never leaves half a file.
 */
export async function writeSnapshot(file: string, state: IndexState, fingerprint: CollectionFingerprint): Promise<void> {
  const lengths = Object.fromEntries(ARRAYS.map(([name]) => [name, (state[name] as ArrayBufferView & { length: number }).length])) as Record<ArrayName, number>;
  const header: Header = { dims: state.dims, model: state.model, size: state.size, files: state.files, fingerprint, termsBytes: state.termBytes.length, lengths };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const prefix = Buffer.alloc(12);
  prefix.writeUInt32LE(MAGIC, 0);
  prefix.writeUInt32LE(VERSION, 4);
  prefix.writeUInt32LE(headerBytes.length, 8);
  const places = layout(headerBytes.length, header);
  const parts: Array<[number, Uint8Array]> = [
    [0, prefix],
    [12, headerBytes],
    [places.termsAt, state.termBytes],
    ...ARRAYS.map(([name]): [number, Uint8Array] => {
      const array = state[name] as ArrayBufferView;
      return [places.at[name], new Uint8Array(array.buffer, array.byteOffset, array.byteLength)];
    }),
    [places.vectorsAt, new Uint8Array(state.vectors.buffer, state.vectors.byteOffset, state.vectors.byteLength)],
  ];
  const temp = `${file}.tmp`;
  const handle = await open(temp, 'w');
  try {
    for (const [position, bytes] of parts) if (bytes.length > 0) await handle.write(bytes, 0, bytes.length, position);
    await handle.truncate(places.end);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, file);
}

/**
 * Reads a snapshot; undefined when the file is missing, damaged, of another version or stale
 * (a stale one is told by its header alone, before anything large is read). The vectors go
 * straight into the memory `target` gives (the vector store's own slots).
 */
export async function readSnapshot(file: string, expected: CollectionFingerprint, target?: VectorTarget): Promise<IndexState | undefined> {
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
    if (f.count !== expected.count || f.maxId !== expected.maxId || f.sumId !== expected.sumId || f.model !== expected.model) return undefined;
    const places = layout(headerLength, header);
    if (places.end !== fileSize) return undefined;
    // Everything between the header and the vectors in one 8-aligned buffer, viewed in place.
    const body = new ArrayBuffer(places.vectorsAt - places.termsAt);
    if (!(await readFully(handle, new Uint8Array(body), places.termsAt))) return undefined;
    const arrays = {} as Record<ArrayName, ArrayBufferView>;
    for (const [name, Type] of ARRAYS) arrays[name] = new Type(body, places.at[name] - places.termsAt, header.lengths[name]);
    const floats = header.size * header.dims;
    const vectors = target ? target({ dims: header.dims, model: header.model, size: header.size }) : new Float32Array(floats);
    if (!vectors || vectors.length !== floats) return undefined;
    if (!(await readFully(handle, new Uint8Array(vectors.buffer, vectors.byteOffset, vectors.byteLength), places.vectorsAt))) return undefined;
    const state = { dims: header.dims, model: header.model, size: header.size, files: header.files, termBytes: new Uint8Array(body, 0, header.termsBytes), vectors, ...arrays } as IndexState;
    if (state.chunkIds.length !== header.size || state.offsets.length < 1 || state.docs.length !== state.offsets[state.offsets.length - 1]) return undefined;
    return state;
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
