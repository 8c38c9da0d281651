import type { RetrievalConfig } from '../../contracts/retrieval';
import { loadExports } from '../../platform/library-exports';
import type { Extracted } from './extract';
import { IngestError } from './extraction-error';
import { blockText } from './html-text';
import { splitCharacters, splitTokens } from './split-text';

/** A chunk: the text searched, what to return instead (a parent), and metadata. */
export interface Chunk {
  text: string;
  context: string | null;
  meta: Record<string, unknown>;
}

/** The settings chunking reads. */
export type ChunkSettings = Pick<
  RetrievalConfig,
  | 'CHUNKING_STRATEGY' | 'CHUNK_SIZE' | 'CHUNK_OVERLAP' | 'TEXT_SPLITTER' | 'PARENT_CHUNK_SIZE' | 'PARENT_CHUNK_OVERLAP' | 'CHILD_CHUNK_SIZE'
  | 'CHILD_CHUNK_OVERLAP' | 'HTML_CHUNK_SIZE' | 'HTML_MIN_CHUNK_SIZE' | 'HTML_CHUNK_OVERLAP' | 'HTML_CONTEXT_WINDOW' | 'ENABLE_CHUNKING_SERVER' | 'CHUNKING_SERVER_URL'
>;

/** A block of a structured document and the headings above it. */
interface Block {
  text: string;
  headings: string[];
}

/** Blocks of HTML: headings update the trail; paragraphs, list items, rows… are blocks. */
async function htmlBlocks(html: string): Promise<Block[]> {
  const cheerio = await loadExports(import('cheerio'), 'cheerio', 'load');
  const $ = cheerio.load(html);
  $('script, style, noscript, template').remove();
  const blocks: Block[] = [];
  const trail: Array<{ level: number; text: string }> = [];
  const selector = 'h1, h2, h3, h4, h5, h6, p, li, pre, blockquote, tr, dt, dd, figcaption, caption';
  $(selector).each((_, el) => {
    if ($(el).parents(selector).length > 0) return; // nested: its ancestor holds its text
    const text = blockText($, el);
    if (text === '') return;
    const match = /^h([1-6])$/.exec(el.tagName);
    if (match) {
      const level = Number(match[1]);
      while (trail.length > 0 && trail[trail.length - 1]!.level >= level) trail.pop();
      trail.push({ level, text });
      return;
    }
    blocks.push({ text, headings: trail.map((h) => h.text) });
  });
  return blocks;
}

/** Blocks of Markdown (`#` headings) or plain text (paragraphs). */
function textBlocks(text: string, markdown: boolean): Block[] {
  const blocks: Block[] = [];
  const trail: Array<{ level: number; text: string }> = [];
  for (const para of text.replace(/\r\n?/g, '\n').split(/\n\s*\n/)) {
    const lines = para.split('\n');
    const body: string[] = [];
    for (const line of lines) {
      const heading = markdown ? /^(#{1,6})\s+(.*)$/.exec(line.trim()) : null;
      if (!heading) {
        body.push(line);
        continue;
      }
      if (body.join('').trim()) blocks.push({ text: body.join('\n').trim(), headings: trail.map((h) => h.text) });
      body.length = 0;
      const level = heading[1]!.length;
      while (trail.length > 0 && trail[trail.length - 1]!.level >= level) trail.pop();
      trail.push({ level, text: heading[2]!.trim() });
    }
    if (body.join('').trim()) blocks.push({ text: body.join('\n').trim(), headings: trail.map((h) => h.text) });
  }
  return blocks;
}

/** The heading trail as context, at most `window` characters (the nearest headings kept). */
function trailText(headings: string[], window: number): string {
  if (window <= 0 || headings.length === 0) return '';
  const full = headings.join(' > ');
  return full.length <= window ? full : `…${full.slice(full.length - window + 1)}`;
}

/**
 * Strategy H: sections under the same headings are packed into chunks of at most
 * HTML_CHUNK_SIZE characters (a longer block is split, sharing HTML_CHUNK_OVERLAP characters);
 * a section shorter than HTML_MIN_CHUNK_SIZE is merged into the next one. Each chunk starts
 * with its heading trail (up to HTML_CONTEXT_WINDOW characters), also kept in `meta.headings`.
 */
function structureChunks(blocks: Block[], s: ChunkSettings): Chunk[] {
  const max = s.HTML_CHUNK_SIZE;
  const out: Chunk[] = [];
  let body: string[] = [];
  let headings: string[] = [];
  let length = 0;
  const emit = () => {
    const text = body.join('\n\n').trim();
    if (text) {
      const trail = trailText(headings, s.HTML_CONTEXT_WINDOW);
      out.push({ text: trail ? `${trail}\n${text}` : text, context: null, meta: { headings } });
    }
    body = [];
    length = 0;
  };
  for (const block of blocks) {
    const sameSection = block.headings.join('\u0000') === headings.join('\u0000');
    if (!sameSection && length >= s.HTML_MIN_CHUNK_SIZE) emit();
    if (body.length === 0) headings = block.headings;
    else if (!sameSection) {
      // A short section merged with the next: keep the headings both sit under.
      let common = 0;
      while (common < headings.length && headings[common] === block.headings[common]) common += 1;
      headings = headings.slice(0, common);
    }
    const parts = block.text.length > max ? splitCharacters(block.text, max, s.HTML_CHUNK_OVERLAP) : [block.text];
    for (const part of parts) {
      if (length > 0 && length + part.length + 2 > max) {
        const tail = s.HTML_CHUNK_OVERLAP > 0 ? body.join('\n\n').slice(-s.HTML_CHUNK_OVERLAP) : '';
        emit();
        if (tail && tail.length + part.length + 2 <= max) {
          body.push(tail.replace(/^\S*\s/, ''));
          length = body[0]!.length;
        }
      }
      body.push(part);
      length += part.length + (body.length > 1 ? 2 : 0);
    }
  }
  emit();
  return out;
}

/** Posts text to the chunking server and reads its chunks (`{chunks: [string | {text}]}`). */
async function serverChunks(url: string, text: string, s: ChunkSettings, filename: string): Promise<Chunk[]> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text, filename, chunk_size: s.CHUNK_SIZE, chunk_overlap: s.CHUNK_OVERLAP, strategy: s.CHUNKING_STRATEGY }),
      signal: AbortSignal.timeout(120_000),
    });
  } catch (error) {
    throw new IngestError(`The chunking server could not be reached: ${(error as Error).message}`);
  }
  if (!response.ok) throw new IngestError(`The chunking server answered ${response.status}`);
  const body = (await response.json().catch(() => null)) as { chunks?: unknown } | unknown[] | null;
  const list = Array.isArray(body) ? body : body?.chunks;
  if (!Array.isArray(list)) throw new IngestError('The chunking server answered without a chunks list');
  return list
    .map((c): Chunk | null => {
      if (typeof c === 'string') return { text: c, context: null, meta: {} };
      if (c && typeof c === 'object' && typeof (c as { text?: unknown }).text === 'string') {
        const meta = (c as { metadata?: unknown }).metadata;
        return { text: (c as { text: string }).text, context: null, meta: meta && typeof meta === 'object' ? (meta as Record<string, unknown>) : {} };
      }
      return null;
    })
    .filter((c): c is Chunk => c !== null && c.text.trim() !== '');
}

/** Page number (1-based) of a character offset. */
function pageAt(pageStarts: number[], offset: number): number {
  let page = 1;
  for (let i = 0; i < pageStarts.length; i += 1) if (pageStarts[i]! <= offset) page = i + 1;
  return page;
}

/** Splits extracted text by the configured strategy (or the chunking server). */
export async function chunkDocument(doc: Extracted, s: ChunkSettings, filename = ''): Promise<Chunk[]> {
  let chunks: Chunk[];
  if (s.ENABLE_CHUNKING_SERVER && s.CHUNKING_SERVER_URL) chunks = await serverChunks(s.CHUNKING_SERVER_URL, doc.text, s, filename);
  else if (s.CHUNKING_STRATEGY === 'E') {
    chunks = [];
    splitCharacters(doc.text, s.PARENT_CHUNK_SIZE, s.PARENT_CHUNK_OVERLAP).forEach((parent, p) => {
      for (const child of splitCharacters(parent, s.CHILD_CHUNK_SIZE, s.CHILD_CHUNK_OVERLAP)) chunks.push({ text: child, context: parent, meta: { parent: p } });
    });
  } else if (s.CHUNKING_STRATEGY === 'H') {
    const blocks = doc.html ? await htmlBlocks(doc.html) : textBlocks(doc.text, doc.markdown ?? false);
    chunks = structureChunks(blocks.length > 0 ? blocks : [{ text: doc.text, headings: [] }], s);
  } else {
    const texts = s.TEXT_SPLITTER === 'token' ? await splitTokens(doc.text, s.CHUNK_SIZE, s.CHUNK_OVERLAP) : splitCharacters(doc.text, s.CHUNK_SIZE, s.CHUNK_OVERLAP);
    chunks = texts.map((text) => ({ text, context: null, meta: {} }));
  }
  if (doc.pageStarts && doc.pageStarts.length > 0) {
    let from = 0;
    for (const chunk of chunks) {
      const probe = chunk.text.slice(0, 40);
      const at = doc.text.indexOf(probe, from);
      if (at >= 0) {
        const tail = chunk.text.slice(-40);
        const end = doc.text.indexOf(tail, at);
        const last = pageAt(doc.pageStarts, (end >= 0 ? end : at) + tail.length - 1);
        chunk.meta.page = pageAt(doc.pageStarts, at);
        if (last !== chunk.meta.page) chunk.meta.last_page = last;
        from = at;
      }
    }
  }
  if (chunks.length === 0) throw new IngestError('No text could be extracted from the file');
  return chunks;
}
