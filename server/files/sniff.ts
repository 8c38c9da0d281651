import path from 'node:path';
import { loadFileType } from '../platform/lazy-libraries';

/** How many leading bytes are read to decide a file's type. Office files (ZIP) need a few entries' worth. */
export const SNIFF_BYTES = 64 * 1024;

/** Binary types (detected by magic bytes) that may be uploaded: documents and images. */
const ALLOWED_BINARY = new Set([
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/vnd.oasis.opendocument.presentation',
  'application/epub+zip',
  'application/rtf',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/bmp',
  'image/tiff',
  'image/avif',
  'image/heic',
]);

/** Allowed types whose files are UTF-8 text by design: their signature decides even when the content is valid text. */
const TEXT_BASED = new Set(['application/pdf', 'application/rtf']);

/** Text types named by extension; other text is `text/plain`. */
const TEXT_BY_EXTENSION: Record<string, string> = {
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.csv': 'text/csv',
  '.tsv': 'text/tab-separated-values',
  '.json': 'application/json',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.xml': 'application/xml',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.svg': 'image/svg+xml',
};

/** The outcome of sniffing: the type to store, or why the file is refused. */
export type SniffResult = { ok: true; mime: string } | { ok: false; reason: string };

/** True when `head` is UTF-8 text: no NUL bytes, and valid except maybe a character cut at the end. */
function looksLikeText(head: Uint8Array, complete: boolean): boolean {
  if (head.includes(0)) return false;
  let bytes = head;
  if (!complete) {
    // A multi-byte character may be cut at the sniff boundary: drop up to 3 trailing bytes of it.
    let cut = bytes.length;
    for (let i = 1; i <= 3 && i <= bytes.length; i += 1) {
      const b = bytes[bytes.length - i]!;
      if ((b & 0xc0) === 0x80) continue; // continuation byte
      if (b >= 0xc0) cut = bytes.length - i; // lead byte of a cut character
      break;
    }
    bytes = bytes.subarray(0, cut);
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Decides a file's type from its first bytes (never from the client's claim): known documents and
 * images by magic bytes, UTF-8 text by content with the extension choosing the text flavour.
 * Everything else (executables, archives, unknown binaries) is refused.
 */
export async function sniffType(head: Uint8Array, filename: string, complete: boolean): Promise<SniffResult> {
  const detected = await (await loadFileType()).fileTypeFromBuffer(head);
  const text = looksLikeText(head, complete);
  // Valid UTF-8 text wins over magic-byte guesses (a text starting with "G" looks like an MPEG
  // transport stream, one starting with "GIF8" like an image), except for formats that are text by design.
  if (detected && ALLOWED_BINARY.has(detected.mime) && (!text || TEXT_BASED.has(detected.mime))) return { ok: true, mime: detected.mime };
  if (text) {
    const ext = path.extname(filename).toLowerCase();
    return { ok: true, mime: TEXT_BY_EXTENSION[ext] ?? 'text/plain' };
  }
  if (detected) return { ok: false, reason: `files of type ${detected.mime} are not allowed` };
  return { ok: false, reason: 'binary files of an unknown type are not allowed' };
}
