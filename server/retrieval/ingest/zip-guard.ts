import { inflateRawSync } from 'node:zlib';

const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const EOCD_SIZE = 22;
const CENTRAL_SIZE = 46;
const LOCAL_SIZE = 30;

/** What an archive may hold before it is refused. */
export interface ZipLimits {
  /** All entries together, inflated. */
  maxBytes: number;
  /** Most entries. */
  maxEntries: number;
  /** Most inflated bytes per compressed byte of an entry larger than {@link ratioFrom}. */
  maxRatio: number;
  ratioFrom: number;
}

const mb = (bytes: number) => `${Math.round(bytes / 1048576)} MB`;

/** The last end-of-central-directory signature (PK 05 06) in the data, searched from the end over all of it, as JSZip does (its `lastIndexOfSignature`). */
function lastEndRecord(data: Buffer): number {
  for (let i = data.length - 4; i >= 0; i -= 1) if (data[i] === 0x50 && data[i + 1] === 0x4b && data[i + 2] === 0x05 && data[i + 3] === 0x06) return i;
  return -1;
}

interface Entry {
  name: string;
  flags: number;
  method: number;
  compressed: number;
  size: number;
  local: number;
}

/**
 * Walks a ZIP archive the way the reader that opens it will (JSZip, inside mammoth: the last
 * end-of-central-directory record, the central directory it points to, each entry's local header
 * and data) and answers why it is refused, or undefined when it may be opened. Fails closed:
 * whatever the walk cannot follow exactly is refused, not left to the reader — a central
 * directory that is not where the end record says (JSZip would shift every offset by the
 * difference, as for "prepended data", and read another archive than the one checked), an
 * archive with bytes before, between or after its parts, entries whose data overlap, sizes the
 * headers disagree on, methods other than stored and deflate, encryption, ZIP64. Every entry is
 * inflated with an output cap, so sizes the archive lies about are caught; the total, the number
 * of entries and each large entry's compression ratio are limited. Nothing inflated is kept.
 */
export function zipBombReason(data: Buffer, limits: ZipLimits): string | undefined {
  const end = lastEndRecord(data);
  if (end < 0 || end + EOCD_SIZE > data.length) return 'it is not a readable ZIP archive';
  if (end + EOCD_SIZE + data.readUInt16LE(end + 20) !== data.length) return 'it has data after the end of the archive';
  const disk = data.readUInt16LE(end + 4);
  const cdDisk = data.readUInt16LE(end + 6);
  const onDisk = data.readUInt16LE(end + 8);
  const count = data.readUInt16LE(end + 10);
  const cdSize = data.readUInt32LE(end + 12);
  const cdOffset = data.readUInt32LE(end + 16);
  if (count === 0xffff || onDisk === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) return 'it is a ZIP64 archive, which is not accepted here';
  if (disk !== 0 || cdDisk !== 0 || onDisk !== count) return 'it is a multi-part archive';
  if (count > limits.maxEntries) return `it has more than ${limits.maxEntries} entries`;
  if (cdOffset + cdSize !== end) return 'its central directory is not where the archive says it is';

  const entries: Entry[] = [];
  let at = cdOffset;
  while (at + 4 <= end && data.readUInt32LE(at) === CENTRAL) {
    if (at + CENTRAL_SIZE > end) return 'its central directory is damaged';
    const nameLength = data.readUInt16LE(at + 28);
    const next = at + CENTRAL_SIZE + nameLength + data.readUInt16LE(at + 30) + data.readUInt16LE(at + 32);
    if (next > end) return 'its central directory is damaged';
    entries.push({
      name: data.toString('latin1', at + CENTRAL_SIZE, at + CENTRAL_SIZE + nameLength),
      flags: data.readUInt16LE(at + 8),
      method: data.readUInt16LE(at + 10),
      compressed: data.readUInt32LE(at + 20),
      size: data.readUInt32LE(at + 24),
      local: data.readUInt32LE(at + 42),
    });
    at = next;
  }
  if (at !== end || entries.length !== count) return 'its central directory does not match its end record';

  // Each entry's data in order of position: inside the archive, after the one before (no overlaps, no gaps but headers).
  const byPosition = [...entries].sort((a, b) => a.local - b.local);
  let reached = 0;
  let budget = limits.maxBytes;
  for (const entry of byPosition) {
    if (entry.flags & 0x1) return 'it is encrypted';
    if (entry.method !== 0 && entry.method !== 8) return `it uses compression method ${entry.method}, which is not accepted here`;
    if (entry.local !== reached || entry.local + LOCAL_SIZE > cdOffset || data.readUInt32LE(entry.local) !== LOCAL) return 'its entries are not where its directory says they are';
    const nameLength = data.readUInt16LE(entry.local + 26);
    if (data.readUInt16LE(entry.local + 8) !== entry.method || data.toString('latin1', entry.local + LOCAL_SIZE, entry.local + LOCAL_SIZE + nameLength) !== entry.name) return 'its entries disagree with its directory';
    // Without a data descriptor the local header carries the sizes too: they must be the directory's.
    if (!(entry.flags & 0x8) && (data.readUInt32LE(entry.local + 18) !== entry.compressed || data.readUInt32LE(entry.local + 22) !== entry.size)) return 'its sizes disagree';
    const start = entry.local + LOCAL_SIZE + nameLength + data.readUInt16LE(entry.local + 28);
    let stop = start + entry.compressed;
    if (stop > cdOffset) return 'its entries are not where its directory says they are';
    // A data descriptor (flag 3) follows the data: 12 or 16 bytes (with its optional signature).
    if (entry.flags & 0x8) stop += stop + 4 <= cdOffset && data.readUInt32LE(stop) === 0x08074b50 ? 16 : 12;
    reached = stop;
    if (entry.size > budget) return `it expands to more than ${mb(limits.maxBytes)}`;
    if (entry.size > limits.ratioFrom && entry.size > entry.compressed * limits.maxRatio) return `an entry expands more than ${limits.maxRatio} times`;
    if (entry.method === 0) {
      if (entry.compressed !== entry.size) return 'its sizes disagree';
    } else {
      let inflated: number;
      try {
        inflated = inflateRawSync(data.subarray(start, start + entry.compressed), { maxOutputLength: entry.size + 1 }).length;
      } catch (error) {
        if (error instanceof RangeError || (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return 'its sizes disagree';
        return 'its compressed data is damaged';
      }
      if (inflated !== entry.size) return 'its sizes disagree';
    }
    budget -= entry.size;
  }
  if (reached !== cdOffset) return 'it has data the directory does not account for';
  return undefined;
}
