import { open, readFile, rename, rm } from 'node:fs/promises';
import type { IndexState } from './hybrid-index';

const MAGIC = 0x58444950; // "PIDX"
const VERSION = 1;

/** What the database says a collection holds; a snapshot taken from other contents is stale. */
export interface CollectionFingerprint {
  count: number;
  maxId: number;
  sumId: number;
  model: string;
}

type ArrayName = 'chunkIds' | 'fileOf' | 'alive' | 'docLen' | 'hasVector' | 'vectors' | 'offsets' | 'docs' | 'tfs';
const ARRAYS: ReadonlyArray<readonly [ArrayName, new (buffer: ArrayBuffer, offset: number, length: number) => ArrayBufferView]> = [
  ['chunkIds', Float64Array],
  ['fileOf', Int32Array],
  ['alive', Uint8Array],
  ['docLen', Uint32Array],
  ['hasVector', Uint8Array],
  ['vectors', Float32Array],
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

const pad8 = (n: number) => Math.ceil(n / 8) * 8;

/**
 * Writes an index as one binary file: a small JSON header, the vocabulary, then each typed array
 * raw and 8-byte aligned. Restoring is a read and a few views (no parsing of numbers, no
 * re-analysis of text). Written to a temp file and renamed, so a crash never leaves half a file.
 */
export async function writeSnapshot(file: string, state: IndexState, fingerprint: CollectionFingerprint): Promise<void> {
  const terms = Buffer.from(state.terms.join('\n'), 'utf8');
  const lengths = Object.fromEntries(ARRAYS.map(([name]) => [name, (state[name] as ArrayBufferView & { length: number }).length])) as Record<ArrayName, number>;
  const header: Header = { dims: state.dims, model: state.model, size: state.size, files: state.files, fingerprint, termsBytes: terms.length, lengths };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const prefix = Buffer.alloc(12);
  prefix.writeUInt32LE(MAGIC, 0);
  prefix.writeUInt32LE(VERSION, 4);
  prefix.writeUInt32LE(headerBytes.length, 8);
  const parts: Uint8Array[] = [prefix, headerBytes];
  let offset = 12 + headerBytes.length;
  const align = () => {
    const gap = pad8(offset) - offset;
    if (gap > 0) parts.push(Buffer.alloc(gap));
    offset += gap;
  };
  align();
  parts.push(terms);
  offset += terms.length;
  for (const [name] of ARRAYS) {
    align();
    const array = state[name] as ArrayBufferView;
    parts.push(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
    offset += array.byteLength;
  }
  const temp = `${file}.tmp`;
  const handle = await open(temp, 'w');
  try {
    for (const part of parts) await handle.write(part);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, file);
}

/** Reads a snapshot; undefined when the file is missing, damaged, of another version or stale. */
export async function readSnapshot(file: string, expected: CollectionFingerprint): Promise<IndexState | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch {
    return undefined;
  }
  try {
    if (bytes.length < 12 || bytes.readUInt32LE(0) !== MAGIC || bytes.readUInt32LE(4) !== VERSION) return undefined;
    const headerLength = bytes.readUInt32LE(8);
    const header = JSON.parse(bytes.toString('utf8', 12, 12 + headerLength)) as Header;
    const f = header.fingerprint;
    if (f.count !== expected.count || f.maxId !== expected.maxId || f.sumId !== expected.sumId || f.model !== expected.model) return undefined;
    // 8-aligned memory so every typed array can be a view (large reads already are; small ones may share a pool).
    let buffer: ArrayBuffer;
    let base = 0;
    if (bytes.byteOffset % 8 === 0 && bytes.buffer instanceof ArrayBuffer) {
      buffer = bytes.buffer;
      base = bytes.byteOffset;
    } else {
      buffer = new ArrayBuffer(bytes.length);
      new Uint8Array(buffer).set(bytes);
    }
    let offset = pad8(12 + headerLength);
    const terms = header.termsBytes > 0 ? Buffer.from(buffer, base + offset, header.termsBytes).toString('utf8').split('\n') : [];
    offset += header.termsBytes;
    const arrays: Partial<Record<ArrayName, ArrayBufferView>> = {};
    for (const [name, Type] of ARRAYS) {
      offset = pad8(offset);
      const length = header.lengths[name];
      const view = new Type(buffer, base + offset, length);
      arrays[name] = view;
      offset += view.byteLength;
      if (offset > bytes.length) return undefined;
    }
    const state = { dims: header.dims, model: header.model, size: header.size, files: header.files, terms, ...arrays } as IndexState;
    if (state.offsets.length !== terms.length + 1 || state.chunkIds.length !== header.size || state.vectors.length !== header.size * header.dims) return undefined;
    return state;
  } catch {
    return undefined;
  }
}

/** Removes a snapshot (ignores a missing one). */
export async function removeSnapshot(file: string): Promise<void> {
  await rm(file, { force: true });
}
