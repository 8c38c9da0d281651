/** Elements that start a new line of text (HTML read as text by retrieval and by web search). */
export const BLOCK_TAGS = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'caption', 'dd', 'div', 'dl', 'dt', 'figcaption', 'figure', 'footer',
  'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table',
  'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul',
]);

/** Elements that never hold readable text (a CSS selector). */
export const DROPPED = 'script, style, noscript, template, svg, canvas, iframe, object, head, link, meta';

/** How {@link blockTextOf} reads a tree of some HTML library (cheerio's nodes, a DOM). */
export interface HtmlTree<N> {
  /** A text node's text; undefined for anything else. */
  text(node: N): string | undefined;
  /** An element's lower-case tag name, '' for a document or fragment; undefined for comments and the like. */
  tag(node: N): string | undefined;
  children(node: N): ArrayLike<N>;
}

/**
 * Text of HTML nodes with a newline per block (a DOM's `textContent` glues blocks together),
 * runs of spaces collapsed and at most one blank line in a row.
 */
export function blockTextOf<N>(roots: Iterable<N>, tree: HtmlTree<N>): string {
  const parts: string[] = [];
  const walk = (node: N) => {
    const text = tree.text(node);
    if (text !== undefined) {
      parts.push(text.replace(/\s+/g, ' '));
      return;
    }
    const tag = tree.tag(node);
    if (tag === undefined) return;
    const block = BLOCK_TAGS.has(tag);
    if (block) parts.push('\n');
    if (tag === 'td' || tag === 'th') parts.push(' ');
    const children = tree.children(node);
    for (let i = 0; i < children.length; i += 1) walk(children[i]!);
    if (block) parts.push('\n');
  };
  for (const root of roots) walk(root);
  return parts
    .join('')
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
