import { inflateRawSync } from 'node:zlib';

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/**
 * Checks, without keeping anything in memory, that the ZIP in `data` inflates to at most
 * `maxBytes` in total. Every deflated entry is inflated with an output cap (so sizes the archive
 * lies about are caught too). Returns a reason when the archive is refused, undefined when fine.
 */
export function zipBombReason(data: Buffer, maxBytes: number): string | undefined {
  let eocd = -1;
  for (let i = data.length - 22; i >= Math.max(0, data.length - 22 - 65_535); i -= 1) {
    if (data.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return undefined; // not a readable zip: the parser reports the damage
  const count = data.readUInt16LE(eocd + 10);
  let at = data.readUInt32LE(eocd + 16);
  if (count === 0xffff || at === 0xffffffff) return 'it is a ZIP64 archive, which is not accepted here';
  let budget = maxBytes;
  for (let n = 0; n < count; n += 1) {
    if (at + 46 > data.length || data.readUInt32LE(at) !== CENTRAL) return undefined;
    const method = data.readUInt16LE(at + 10);
    const compressed = data.readUInt32LE(at + 20);
    const declared = data.readUInt32LE(at + 24);
    const nameLength = data.readUInt16LE(at + 28);
    const extraLength = data.readUInt16LE(at + 30);
    const commentLength = data.readUInt16LE(at + 32);
    const local = data.readUInt32LE(at + 42);
    at += 46 + nameLength + extraLength + commentLength;
    if (declared > budget) return `it expands to more than ${Math.round(maxBytes / 1048576)} MB`;
    if (method !== 8 || local + 30 > data.length || data.readUInt32LE(local) !== LOCAL) {
      budget -= Math.max(declared, method === 0 ? compressed : 0);
      continue;
    }
    const start = local + 30 + data.readUInt16LE(local + 26) + data.readUInt16LE(local + 28);
    try {
      budget -= inflateRawSync(data.subarray(start, start + compressed), { maxOutputLength: Math.max(1, budget) }).length;
    } catch (error) {
      if (error instanceof RangeError || (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return `it expands to more than ${Math.round(maxBytes / 1048576)} MB`;
      return undefined; // damaged data: the parser reports it
    }
  }
  return undefined;
}
