import { constants, inflateSync } from 'node:zlib';

const STREAM = Buffer.from('stream');
const END_STREAM = Buffer.from('endstream');
/** How far before a `stream` keyword its dictionary is looked for. */
const DICT_LOOKBACK = 64 * 1024;

const isSpace = (b: number | undefined) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09 || b === 0x0c || b === 0x00;

/** The dictionary (`<<…>>`, nested ones included) that ends right before `at`, as text; undefined when there is none. */
function dictionaryBefore(data: Buffer, at: number): string | undefined {
  let end = at - 1;
  while (end >= 0 && isSpace(data[end])) end -= 1;
  if (end < 1 || data[end] !== 0x3e || data[end - 1] !== 0x3e) return undefined;
  let depth = 0;
  const floor = Math.max(0, at - DICT_LOOKBACK);
  for (let i = end; i > floor; i -= 1) {
    if (data[i] === 0x3e && data[i - 1] === 0x3e) {
      depth += 1;
      i -= 1;
    } else if (data[i] === 0x3c && data[i - 1] === 0x3c) {
      depth -= 1;
      if (depth === 0) return data.toString('latin1', i - 1, end + 1);
      i -= 1;
    }
  }
  return undefined;
}

/** The filters a stream's dictionary names, in order; undefined when they cannot be read here (an indirect reference). */
function filtersOf(dict: string): string[] | undefined {
  const match = /\/Filter\s*(\[[^\]]*\]|\/[A-Za-z0-9]+|\d+\s+\d+\s+R)/.exec(dict);
  if (!match) return [];
  if (/R$/.test(match[1]!)) return undefined;
  return [...match[1]!.matchAll(/\/([A-Za-z0-9]+)/g)].map((m) => m[1]!);
}

/** The integers the PDF holds as objects of their own (`12 0 obj 345 endobj`: indirect stream lengths), read once. */
function integerObjects(data: Buffer): Map<string, number> {
  const found = new Map<string, number>();
  for (const m of data.toString('latin1').matchAll(/(\d+)\s+(\d+)\s+obj\s*(\d+)\s*endobj/g)) found.set(`${m[1]} ${m[2]}`, Number(m[3]));
  return found;
}

/** A stream's `/Length`: a number written in place, or an indirect object holding one. */
function lengthOf(dict: string, objects: () => Map<string, number>): number | undefined {
  const direct = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dict);
  if (direct) return Number(direct[1]);
  const ref = /\/Length\s+(\d+)\s+(\d+)\s+R/.exec(dict);
  return ref ? objects().get(`${ref[1]} ${ref[2]}`) : undefined;
}

/** Where a stream's data ends, as PDF.js decides it: after `/Length` bytes when `endstream` follows there, else at the first `endstream`. */
function streamEnd(data: Buffer, start: number, length: number | undefined): number {
  if (length !== undefined && start + length <= data.length) {
    let at = start + length;
    while (isSpace(data[at])) at += 1;
    if (data.subarray(at, at + END_STREAM.length).equals(END_STREAM)) return start + length;
  }
  const found = data.indexOf(END_STREAM, start);
  return found < 0 ? data.length : found;
}

function asciiHex(input: Buffer): Buffer {
  const text = input.toString('latin1').replace(/[^0-9A-Fa-f>]/g, '');
  const digits = text.split('>')[0]!;
  return Buffer.from(digits.length % 2 ? `${digits}0` : digits, 'hex');
}

function ascii85(input: Buffer): Buffer {
  const text = input.toString('latin1').replace(/\s/g, '').replace(/^<~/, '').split('~>')[0]!;
  const out: number[] = [];
  let group: number[] = [];
  const flush = (count: number) => {
    while (group.length < 5) group.push(84);
    let value = 0;
    for (const digit of group) value = value * 85 + digit;
    const bytes = [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
    out.push(...bytes.slice(0, count));
    group = [];
  };
  for (const char of text) {
    if (char === 'z' && group.length === 0) {
      out.push(0, 0, 0, 0);
      continue;
    }
    const digit = char.charCodeAt(0) - 33;
    if (digit < 0 || digit > 84) break;
    group.push(digit);
    if (group.length === 5) flush(4);
  }
  if (group.length > 1) flush(group.length - 1);
  return Buffer.from(out);
}

/**
 * Checks a PDF before PDF.js reads it: every stream is decoded through the filters that make it
 * grow (Flate, also after ASCIIHex/ASCII85, and Flate inside Flate), each with an output cap, and
 * refused when all of them together would exceed `maxBytes` (a content stream that inflates to
 * gigabytes stops PDF.js's text extraction for minutes and exhausts its memory). Streams behind
 * other filters (images, LZW, run-length) are not measured here, and neither are the streams of an
 * encrypted PDF (they do not inflate before decryption); the ingestion worker's memory and time
 * limits stop those. Nothing decoded is kept. Answers the reason for a refusal, or undefined.
 */
export function pdfBombReason(data: Buffer, maxBytes: number): string | undefined {
  let objects: Map<string, number> | undefined;
  const indirect = () => (objects ??= integerObjects(data));
  let budget = maxBytes;
  let at = data.indexOf(STREAM);
  while (at >= 0) {
    const afterKeyword = at + STREAM.length;
    const isKeyword = !(at >= 3 && data.toString('latin1', at - 3, at) === 'end') && (data[afterKeyword] === 0x0a || data[afterKeyword] === 0x0d);
    const dict = isKeyword ? dictionaryBefore(data, at) : undefined;
    if (dict === undefined) {
      at = data.indexOf(STREAM, afterKeyword);
      continue;
    }
    const start = afterKeyword + (data[afterKeyword] === 0x0d && data[afterKeyword + 1] === 0x0a ? 2 : 1);
    const end = streamEnd(data, start, lengthOf(dict, indirect));
    const filters = filtersOf(dict);
    if (filters === undefined) return 'its stream filters cannot be checked';
    let content: Buffer = data.subarray(start, end);
    for (const filter of filters) {
      if (filter === 'FlateDecode' || filter === 'Fl') {
        try {
          content = inflateSync(content, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: budget + 1 });
        } catch (error) {
          if (error instanceof RangeError || (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return `it expands to more than ${Math.round(maxBytes / 1048576)} MB`;
          content = Buffer.alloc(0);
          break;
        }
      } else if (filter === 'ASCIIHexDecode' || filter === 'AHx') content = asciiHex(content);
      else if (filter === 'ASCII85Decode' || filter === 'A85') content = ascii85(content);
      else break;
    }
    if (filters.length > 0) budget -= content.length;
    if (budget < 0) return `it expands to more than ${Math.round(maxBytes / 1048576)} MB`;
    at = data.indexOf(STREAM, Math.max(end, afterKeyword));
  }
  return undefined;
}
