import { loadExports } from '../../platform/library-exports';

/** Separators tried in order: paragraphs, lines, sentences, words, characters. */
const SEPARATORS = ['\n\n', '\n', '. ', ' ', ''];

function splitOn(text: string, separator: string): string[] {
  if (separator === '') return [...text];
  const parts = text.split(separator);
  // Keep the separator with the piece before it, so joining pieces restores the text.
  return parts.map((part, i) => (i < parts.length - 1 ? part + separator : part)).filter((p) => p !== '');
}

/** Pieces no longer than `size`, cut at the coarsest separator that works. */
function pieces(text: string, size: number, level = 0): string[] {
  if (text.length <= size) return [text];
  const separator = SEPARATORS[level] ?? '';
  const out: string[] = [];
  for (const part of splitOn(text, separator)) {
    if (part.length <= size) out.push(part);
    // One by one: a long run without separators gives more pieces than a call may take arguments.
    else for (const piece of pieces(part, size, level + 1)) out.push(piece);
  }
  return out;
}

/**
 * Strategy A, character splitter: chunks of at most `size` characters, cut at paragraph, line,
 * sentence or word boundaries where possible; each chunk starts with up to `overlap` characters
 * (whole pieces) of the end of the one before.
 */
export function splitCharacters(text: string, size: number, overlap: number): string[] {
  const clean = text.replace(/\r\n?/g, '\n').trim();
  if (clean === '') return [];
  const safeOverlap = Math.min(overlap, Math.floor(size / 2));
  const chunks: string[] = [];
  let current: string[] = [];
  let length = 0;
  for (const piece of pieces(clean, size)) {
    if (length + piece.length > size && current.length > 0) {
      chunks.push(current.join('').trim());
      // Carry whole trailing pieces into the next chunk while they fit in the overlap.
      const carried: string[] = [];
      let carriedLength = 0;
      for (let i = current.length - 1; i >= 0; i -= 1) {
        const p = current[i]!;
        if (carriedLength + p.length > safeOverlap || carriedLength + p.length + piece.length > size) break;
        carried.unshift(p);
        carriedLength += p.length;
      }
      current = carried;
      length = carriedLength;
    }
    current.push(piece);
    length += piece.length;
  }
  if (current.length > 0) chunks.push(current.join('').trim());
  return chunks.filter((c) => c !== '');
}

type Encoder = { encode(text: string): number[]; decode(tokens: number[]): string };
let encoder: Promise<Encoder> | undefined;

/** The cl100k_base tokenizer (loaded on first use: its ranks are large). */
async function tokenizer(): Promise<Encoder> {
  encoder ??= (async () => {
    const [{ Tiktoken }, ranks] = await Promise.all([
      loadExports(import('js-tiktoken/lite'), 'js-tiktoken/lite', 'Tiktoken'),
      loadExports(import('js-tiktoken/ranks/cl100k_base'), 'js-tiktoken/ranks/cl100k_base', 'default'),
    ]);
    return new Tiktoken(ranks.default);
  })();
  return encoder;
}

/** Strategy A, token splitter: windows of `size` tokens (cl100k_base), each sharing `overlap` tokens with the one before. */
export async function splitTokens(text: string, size: number, overlap: number): Promise<string[]> {
  const enc = await tokenizer();
  const tokens = enc.encode(text.replace(/\r\n?/g, '\n').trim());
  const step = Math.max(1, size - Math.min(overlap, size - 1));
  const chunks: string[] = [];
  for (let start = 0; start < tokens.length; start += step) {
    chunks.push(enc.decode(tokens.slice(start, start + size)));
    if (start + size >= tokens.length) break;
  }
  return chunks.filter((c) => c.trim() !== '');
}

/** Token count of a text (cl100k_base). */
export async function countTokens(text: string): Promise<number> {
  return (await tokenizer()).encode(text).length;
}
