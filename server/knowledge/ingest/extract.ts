import { readFile } from 'node:fs/promises';
import { loadExports } from '../../platform/library-exports';
import { IngestError } from './extraction-error';
import { blockText, DROPPED } from './html-text';
import { zipBombReason } from './zip-guard';

/** What extraction yields: plain text, and HTML when the source has structure (HTML, DOCX). */
export interface Extracted {
  text: string;
  html?: string;
  /** Markdown source (headings give strategy H its structure). */
  markdown?: boolean;
  /** Character offset where each PDF page starts in `text`. */
  pageStarts?: number[];
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
export function isSupported(mime: string): boolean {
  return TEXT_TYPES.has(mime) || ['text/markdown', 'text/csv', 'application/json', 'text/html', 'application/pdf', DOCX].includes(mime) || mime.startsWith('text/');
}

/** Parses CSV (RFC 4180: quotes, doubled quotes, newlines in quotes). */
export function parseCsv(text: string, delimiter = ','): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === delimiter) {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i += 1;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((f) => f.trim() !== ''));
}

/** CSV rows as self-describing lines (`name: Ada; role: admin`), so each chunk keeps its column names. */
function csvText(source: string, delimiter: string): string {
  const [header, ...rows] = parseCsv(source, delimiter);
  if (!header) return '';
  if (rows.length === 0) return header.join(', ');
  return rows.map((row) => row.map((value, i) => `${header[i]?.trim() || `column ${i + 1}`}: ${value.trim()}`).join('; ')).join('\n');
}

/** JSON flattened to `path: value` lines. */
function jsonText(source: string): string {
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (error) {
    throw new IngestError(`The JSON file is not valid: ${(error as Error).message}`);
  }
  const lines: string[] = [];
  const walk = (v: unknown, path: string) => {
    if (Array.isArray(v)) v.forEach((item, i) => walk(item, `${path}[${i}]`));
    else if (v && typeof v === 'object') for (const [k, item] of Object.entries(v)) walk(item, path ? `${path}.${k}` : k);
    else lines.push(path ? `${path}: ${String(v)}` : String(v));
  };
  walk(value, '');
  return lines.join('\n');
}

/** The main content of a web page: Readability's article, else the page body; scripts and styles dropped. */
async function htmlText(source: string): Promise<Extracted> {
  // A library that fails to load is an error of the build, not of the page: it is not caught here.
  const [cheerio, { JSDOM, VirtualConsole }, { Readability }] = await Promise.all([
    loadExports(import('cheerio'), 'cheerio', 'load'),
    loadExports(import('jsdom'), 'jsdom', 'JSDOM', 'VirtualConsole'),
    loadExports(import('@mozilla/readability'), '@mozilla/readability', 'Readability'),
  ]);
  let html = source;
  let dom: InstanceType<typeof JSDOM> | undefined;
  try {
    dom = new JSDOM(source, { virtualConsole: new VirtualConsole() });
    const article = new Readability(dom.window.document, { charThreshold: 200 }).parse();
    if (article?.content && (article.textContent ?? '').trim().length >= 200) html = article.content;
  } catch {
    // Readability could not make sense of this page: use the whole body.
  } finally {
    dom?.window.close();
  }
  const $ = cheerio.load(html);
  $(DROPPED).remove();
  const main = $('main, article, [role=main]').first();
  const root = main.length > 0 ? main : $('body').length > 0 ? $('body') : $.root();
  return { text: blockText($, root), html: $.html(root) };
}

async function pdfText(data: Buffer): Promise<Extracted> {
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

/** What a .docx may inflate to before it is refused as a zip bomb. */
const MAX_DOCX_INFLATED_BYTES = 64 * 1024 * 1024;

async function docxText(data: Buffer, wantHtml: boolean): Promise<Extracted> {
  const bomb = zipBombReason(data, MAX_DOCX_INFLATED_BYTES);
  if (bomb) throw new IngestError(`The Word document was refused: ${bomb} (too large to index)`);
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

/**
 * Extracts a file's text by its (sniffed) type, or through the external loader. Throws
 * {@link IngestError} with a reason a user can act on (corrupt, password-protected, no text).
 */
export async function extract(file: SourceFile, options: { externalUrl?: string; wantHtml?: boolean } = {}): Promise<Extracted> {
  const data = await readFile(file.path).catch(() => {
    throw new IngestError('The stored file is missing');
  });
  let out: Extracted;
  if (options.externalUrl) out = await externalText(file, data, options.externalUrl);
  else if (file.mime === 'application/pdf') out = await pdfText(data);
  else if (file.mime === DOCX) out = await docxText(data, options.wantHtml ?? false);
  else if (file.mime === 'text/html') out = await htmlText(data.toString('utf8'));
  else if (file.mime === 'text/csv') out = { text: csvText(data.toString('utf8'), ',') };
  else if (file.mime === 'text/tab-separated-values') out = { text: csvText(data.toString('utf8'), '\t') };
  else if (file.mime === 'application/json') out = { text: jsonText(data.toString('utf8')) };
  else if (file.mime === 'text/markdown') out = { text: data.toString('utf8'), markdown: true };
  else if (isSupported(file.mime)) out = { text: data.toString('utf8') };
  else throw new IngestError(`Files of type ${file.mime} hold no text that can be indexed`);
  if (out.text.trim() === '') throw new IngestError('No text could be extracted from the file');
  return out;
}
