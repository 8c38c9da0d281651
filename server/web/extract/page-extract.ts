import type { WebSearchResult } from '../../contracts/web';
import { loadExports } from '../../platform/library-exports';
import { blockTextOf, DROPPED, type HtmlTree } from '../../platform/html-blocks';

/** A fetched page to turn into text (a plain object: it crosses to the worker thread). */
export interface PageInput {
  url: string;
  mediaType: string;
  charset?: string;
  body: Uint8Array;
}

/** A page's readable text. */
export interface PageText {
  url: string;
  title: string;
  text: string;
}

/** Parts of a page around its content, dropped when no article was found. */
const PAGE_FURNITURE = 'nav, header, footer, aside, form, [role=navigation], [role=banner], [role=contentinfo], [aria-hidden=true]';

/** Longest text kept of one page, in characters. */
export const MAX_PAGE_CHARS = 400_000;

/** The part of linkedom's DOM used here (the service's TypeScript has no DOM library). */
interface DomNode {
  nodeType: number;
  localName?: string;
  data?: string;
  childNodes: ArrayLike<DomNode>;
}
interface DomElement extends DomNode {
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<{ remove(): void }>;
}
interface PageDocument extends DomElement {
  title: string;
  body: DomElement | null;
  documentElement: DomElement;
}
interface ReadabilityArticle {
  title?: string | null;
  /** The article's element itself (the serializer below hands it over instead of its HTML). */
  content?: DomElement | null;
  textContent?: string | null;
}
type ReadabilityClass = new (document: PageDocument, options?: { charThreshold?: number; maxElemsToParse?: number; serializer?: (element: DomElement) => DomElement }) => { parse(): ReadabilityArticle | null };
interface LinkedomModule {
  parseHTML(html: string): { document: PageDocument };
}

/** A DOM as {@link blockTextOf} reads it. */
const DOM_TREE: HtmlTree<DomNode> = {
  text: (node) => (node.nodeType === 3 ? (node.data ?? '') : undefined),
  tag: (node) => (node.nodeType === 1 ? (node.localName ?? '') : node.nodeType === 9 || node.nodeType === 11 ? '' : undefined),
  children: (node) => node.childNodes,
};

/** Removes every element matching `selector` under `root`. */
function removeAll(root: DomElement, selector: string): void {
  const found = root.querySelectorAll(selector);
  for (let i = 0; i < found.length; i += 1) found[i]!.remove();
}

/** Readability's class (read through loadExports: the bundle may expose the CommonJS module as `default` only). */
async function readabilityClass(): Promise<ReadabilityClass> {
  const { Readability } = await loadExports(import('@mozilla/readability'), '@mozilla/readability', 'Readability');
  return Readability as unknown as ReadabilityClass;
}

async function linkedomModule(): Promise<LinkedomModule> {
  const { parseHTML } = await loadExports(import('linkedom'), 'linkedom', 'parseHTML');
  return { parseHTML: parseHTML as unknown as LinkedomModule['parseHTML'] };
}

/** The charset an HTML page declares in its first kilobyte (`<meta charset>` or the http-equiv form). */
function declaredCharset(body: Uint8Array): string | undefined {
  const head = new TextDecoder('latin1').decode(body.subarray(0, 1024));
  return /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1];
}

/** Text in the page's charset (UTF-8 when unknown). */
function decode(body: Uint8Array, charset: string | undefined): string {
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/** A percent-encoded path segment as text (as it is when it is not valid encoding). */
const safeDecode = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

const clip = (text: string) => (text.length > MAX_PAGE_CHARS ? text.slice(0, MAX_PAGE_CHARS) : text);

/** The host of a URL, as a title of last resort. */
const hostOf = (url: string) => {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
};

/**
 * An HTML page's main content: Readability's article when it finds one (menus, footers and ads
 * left out), else the page's main part; scripts, styles and embeds dropped; one line per block.
 * The DOM is linkedom's (about twenty times quicker than jsdom on a 100 KB page, and Readability
 * reads it the same) and the text is read from it directly (no HTML written out and parsed
 * again); the text is decoded in the charset the server or the page declares.
 */
async function htmlText(input: PageInput): Promise<PageText> {
  const [{ parseHTML }, Readability] = await Promise.all([linkedomModule(), readabilityClass()]);
  const text = decode(input.body, input.charset ?? declaredCharset(input.body));
  const { document } = parseHTML(text);
  const documentTitle = (document.title ?? '').trim();
  try {
    const found = new Readability(document, { charThreshold: 200, maxElemsToParse: 200_000, serializer: (element) => element }).parse();
    if (found?.content && (found.textContent ?? '').trim().length >= 200) {
      removeAll(found.content, DROPPED);
      return { url: input.url, title: found.title?.trim() || documentTitle || hostOf(input.url), text: clip(blockTextOf([found.content], DOM_TREE)) };
    }
  } catch {
    // Readability could not make sense of it: the fallback below reads the body.
  }
  // No article found (a short page): its main part, without menus, banners and footers. Readability
  // changed the document it read, so the page is parsed again (rare, and mostly small pages).
  const page = parseHTML(text).document;
  const root = page.body ?? page.documentElement;
  removeAll(root, DROPPED);
  removeAll(root, PAGE_FURNITURE);
  const main = root.querySelector('main, article, [role=main]');
  return { url: input.url, title: documentTitle || hostOf(input.url), text: clip(blockTextOf([main ?? root], DOM_TREE)) };
}

async function pdfText(input: PageInput): Promise<PageText> {
  const { PDFParse } = await loadExports(import('pdf-parse'), 'pdf-parse', 'PDFParse');
  const parser = new PDFParse({ data: input.body });
  try {
    const result = await parser.getText();
    const text = result.pages.map((page) => page.text.trim()).join('\n\n');
    const name = new URL(input.url).pathname.split('/').pop() ?? '';
    return { url: input.url, title: safeDecode(name) || hostOf(input.url), text: clip(text) };
  } finally {
    await parser.destroy().catch(() => undefined);
  }
}

/** True when plain text is really an HTML document sent without its type. */
const looksLikeHtml = (text: string) => /^\s*(<!doctype html|<html[\s>])/i.test(text.slice(0, 1024));

/** A fetched page's readable text, by its media type. Heavy (DOM, Readability, PDF): runs on the web worker. */
export async function pageText(input: PageInput): Promise<PageText> {
  const type = input.mediaType;
  if (type === 'application/pdf') return pdfText(input);
  if (type === 'text/html' || type === 'application/xhtml+xml') return htmlText(input);
  const text = decode(input.body, input.charset);
  if (looksLikeHtml(text)) return htmlText(input);
  if (type === 'application/json' || type === 'application/ld+json') {
    try {
      return { url: input.url, title: hostOf(input.url), text: clip(JSON.stringify(JSON.parse(text), null, 1)) };
    } catch {
      // Not valid JSON: read as it is.
    }
  }
  const heading = /^#\s+(.+)$/m.exec(text.slice(0, 2000));
  return { url: input.url, title: heading?.[1]?.trim() || hostOf(input.url), text: clip(text.trim()) };
}

/** The href of a DuckDuckGo result: its redirect link (`//duckduckgo.com/l/?uddg=…`) unwrapped; ads (y.js) dropped. */
function ddgLink(href: string | undefined): string | null {
  if (!href) return null;
  let url: URL;
  try {
    url = new URL(href, 'https://duckduckgo.com/');
  } catch {
    return null;
  }
  if (url.hostname.endsWith('duckduckgo.com')) {
    if (url.pathname === '/l/') return url.searchParams.get('uddg');
    return null;
  }
  return url.href;
}

/** Results of DuckDuckGo's HTML page: `.result` blocks with `a.result__a` and `.result__snippet`, ads left out. */
export async function duckduckgoResults(html: string): Promise<WebSearchResult[]> {
  const cheerio = await loadExports(import('cheerio'), 'cheerio', 'load');
  const $ = cheerio.load(html);
  const out: WebSearchResult[] = [];
  $('.result').each((_, element) => {
    const block = $(element);
    if (block.hasClass('result--ad')) return;
    const anchor = block.find('a.result__a').first();
    const link = ddgLink(anchor.attr('href'));
    if (!link) return;
    out.push({ link, title: anchor.text().trim(), snippet: block.find('.result__snippet').first().text().replace(/\s+/g, ' ').trim() });
  });
  return out;
}
