import { open, readFile } from 'node:fs/promises';
import { loadExports } from '../../platform/library-exports';
import { IngestError } from './extraction-error';
import { blockText, htmlText } from './html-text';
import { pdfBombReason } from './pdf-guard';
import { csvText, jsonText } from './structured-text';
import { zipBombReason, type ZipLimits } from './zip-guard';

/** What extraction yields: plain text, and HTML when the source has structure (HTML, DOCX). */
export interface Extracted {
  text: string;
  html?: string;
  /** Markdown source (headings give strategy H its structure). */
  markdown?: boolean;
  /** Character offset where each PDF page starts in `text`. */
  pageStarts?: number[];
  /** Only the beginning of the file was read (`readBytes`). */
  partial?: boolean;
}

/** A stored file to extract. */
export interface SourceFile {
  path: string;
  mime: string;
  filename: string;
}

const TEXT_TYPES = new Set(['text/plain', 'application/xml', 'application/yaml', 'text/tab-separated-values']);
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** Every file type the built-in extractors read. */
function isSupported(mime: string): boolean {
  return TEXT_TYPES.has(mime) || ['text/markdown', 'text/csv', 'application/json', 'text/html', 'application/pdf', DOCX].includes(mime) || mime.startsWith('text/');
}

/** What the streams of a PDF may inflate to before it is refused as a bomb. */
const MAX_PDF_INFLATED_BYTES = 256 * 1024 * 1024;

async function pdfText(data: Buffer): Promise<Extracted> {
  const bomb = pdfBombReason(data, MAX_PDF_INFLATED_BYTES);
  if (bomb) throw new IngestError(`The PDF was refused: ${bomb}`);
  const { PDFParse } = await loadExports(import('pdf-parse'), 'pdf-parse', 'PDFParse');
  const parser = new PDFParse({ data: new Uint8Array(data) });
  try {
    const result = await parser.getText();
    const pageStarts: number[] = [];
    let text = '';
    for (const page of result.pages) {
      pageStarts.push(text.length);
      text += `${page.text.trim()}\n\n`;
    }
    return { text: text.trim(), pageStarts };
  } catch (error) {
    const name = (error as { name?: string }).name ?? '';
    if (name === 'PasswordException' || /password/i.test((error as Error).message)) throw new IngestError('The PDF is password-protected');
    throw new IngestError(`The PDF could not be read (damaged or not a PDF): ${(error as Error).message}`);
  } finally {
    await parser.destroy().catch(() => undefined);
  }
}

/** What a .docx may hold before it is refused as a zip bomb: 64 MB inflated, 10,000 parts, entries over 1 MB at most 100 times their compressed size. */
const DOCX_LIMITS: ZipLimits = { maxBytes: 64 * 1024 * 1024, maxEntries: 10_000, maxRatio: 100, ratioFrom: 1024 * 1024 };

async function docxText(data: Buffer, wantHtml: boolean): Promise<Extracted> {
  const bomb = zipBombReason(data, DOCX_LIMITS);
  if (bomb) throw new IngestError(`The Word document was refused: ${bomb}`);
  // Loaded outside the try: a library that fails to load is not a damaged document.
  const [{ default: mammoth }, cheerio] = await Promise.all([loadExports(import('mammoth'), 'mammoth', 'default'), loadExports(import('cheerio'), 'cheerio', 'load')]);
  try {
    if (wantHtml) {
      const { value } = await mammoth.convertToHtml({ buffer: data });
      const $ = cheerio.load(value);
      return { text: blockText($, $.root()), html: value };
    }
    const { value } = await mammoth.extractRawText({ buffer: data });
    return { text: value.replace(/\n{3,}/g, '\n\n').trim() };
  } catch (error) {
    throw new IngestError(`The Word document could not be read (damaged, encrypted or not a .docx): ${(error as Error).message}`);
  }
}

/** Sends the file to the external loader (PUT, raw bytes) and reads its text. */
async function externalText(file: SourceFile, data: Buffer, url: string): Promise<Extracted> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'PUT',
      body: new Uint8Array(data),
      headers: { 'content-type': file.mime, 'x-filename': encodeURIComponent(file.filename) },
      signal: AbortSignal.timeout(120_000),
    });
  } catch (error) {
    throw new IngestError(`The external document loader could not be reached: ${(error as Error).message}`);
  }
  if (!response.ok) throw new IngestError(`The external document loader answered ${response.status}`);
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('json')) return { text: (await response.text()).trim() };
  const body = (await response.json()) as unknown;
  const pick = (v: unknown): string => {
    if (typeof v === 'string') return v;
    if (Array.isArray(v)) return v.map(pick).join('\n\n');
    if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      return pick(o.page_content ?? o.text ?? o.content ?? '');
    }
    return '';
  };
  return { text: pick(body).trim() };
}

/** Types whose beginning is text on its own: a preview reads only the first bytes of them. */
const CUT_AT_ANY_BYTE = (mime: string) => mime !== 'application/pdf' && mime !== DOCX;

/** The file's bytes: all of them, or at most `limit` for types that stay readable when cut (`cut`: there was more). */
async function readSource(file: SourceFile, limit: number | undefined): Promise<{ data: Buffer; cut: boolean }> {
  try {
    if (limit === undefined || !CUT_AT_ANY_BYTE(file.mime)) return { data: await readFile(file.path), cut: false };
    const handle = await open(file.path, 'r');
    try {
      const buffer = Buffer.alloc(limit + 1);
      const { bytesRead } = await handle.read(buffer, 0, limit + 1, 0);
      return { data: buffer.subarray(0, Math.min(bytesRead, limit)), cut: bytesRead > limit };
    } finally {
      await handle.close();
    }
  } catch {
    throw new IngestError('The stored file is missing');
  }
}

/**
 * Extracts a file's text by its (sniffed) type, or through the external loader. Throws
 * {@link IngestError} with a reason a user can act on (corrupt, password-protected, no text,
 * refused as a bomb). `readBytes` reads only the beginning of text-like files (previews).
 */
export async function extract(file: SourceFile, options: { externalUrl?: string; wantHtml?: boolean; readBytes?: number } = {}): Promise<Extracted> {
  const { data, cut } = await readSource(file, options.readBytes);
  let out: Extracted;
  if (options.externalUrl) out = await externalText(file, data, options.externalUrl);
  else if (file.mime === 'application/pdf') out = await pdfText(data);
  else if (file.mime === DOCX) out = await docxText(data, options.wantHtml ?? false);
  else if (file.mime === 'text/html') out = await htmlText(data.toString('utf8'));
  else if (file.mime === 'text/csv') out = { text: csvText(data.toString('utf8'), ',') };
  else if (file.mime === 'text/tab-separated-values') out = { text: csvText(data.toString('utf8'), '\t') };
  else if (file.mime === 'application/json') out = { text: cut ? data.toString('utf8') : jsonText(data.toString('utf8')) };
  else if (file.mime === 'text/markdown') out = { text: data.toString('utf8'), markdown: true };
  else if (isSupported(file.mime)) out = { text: data.toString('utf8') };
  else throw new IngestError(`Files of type ${file.mime} hold no text that can be indexed`);
  if (out.text.trim() === '') throw new IngestError('No text could be extracted from the file');
  return cut ? { ...out, partial: true } : out;
}
