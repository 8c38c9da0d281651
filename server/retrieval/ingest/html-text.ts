import type { CheerioAPI } from 'cheerio';
import { blockTextOf, DROPPED, type HtmlTree } from '../../platform/html-blocks';
import { loadExports } from '../../platform/library-exports';

interface Node {
  type: string;
  data?: string;
  name?: string;
  children?: Node[];
}

/** cheerio's nodes as {@link blockTextOf} reads them. */
const CHEERIO_TREE: HtmlTree<Node> = {
  text: (node) => (node.type === 'text' ? (node.data ?? '') : undefined),
  tag: (node) => (node.type === 'tag' ? node.name : node.type === 'root' ? '' : undefined),
  children: (node) => node.children ?? [],
};

/**
 * Text of an element with a newline per block (cheerio's `.text()` glues blocks together),
 * runs of spaces collapsed and at most one blank line in a row.
 */
export function blockText($: CheerioAPI, root: unknown): string {
  return blockTextOf($(root as never).toArray() as unknown as Node[], CHEERIO_TREE);
}

/**
 * Pages with more elements than this (scripts and styles left out) skip Readability: its cost
 * grows with the square of the page (a plain 0.5 MB page took seconds, a 7.5 MB one minutes), so a
 * large page is read from its main element or body instead (cheerio: linear, ~0.2 s per MB).
 */
export const READABILITY_MAX_ELEMENTS = 3000;

/** The main content of a web page: Readability's article (pages up to {@link READABILITY_MAX_ELEMENTS}), else the page's main element or body; scripts and styles dropped. */
export async function htmlText(source: string): Promise<{ text: string; html: string }> {
  // A library that fails to load is an error of the build, not of the page: it is not caught here.
  const cheerio = await loadExports(import('cheerio'), 'cheerio', 'load');
  const page = cheerio.load(source);
  page(DROPPED).remove();
  let html: string | undefined;
  if (page('*').length <= READABILITY_MAX_ELEMENTS) {
    const [{ JSDOM, VirtualConsole }, { Readability }] = await Promise.all([
      loadExports(import('jsdom'), 'jsdom', 'JSDOM', 'VirtualConsole'),
      loadExports(import('@mozilla/readability'), '@mozilla/readability', 'Readability'),
    ]);
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
  }
  const $ = html === undefined ? page : cheerio.load(html);
  if (html !== undefined) $(DROPPED).remove();
  const main = $('main, article, [role=main]').first();
  const root = main.length > 0 ? main : $('body').length > 0 ? $('body') : $.root();
  return { text: blockText($, root), html: $.html(root) };
}
