import type { CheerioAPI } from 'cheerio';

/** Elements that start a new line of text. */
export const BLOCK_TAGS = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'caption', 'dd', 'div', 'dl', 'dt', 'figcaption', 'figure', 'footer',
  'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table',
  'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul',
]);

/** Elements that never hold readable text. */
export const DROPPED = 'script, style, noscript, template, svg, canvas, iframe, object, head, link, meta';

interface Node {
  type: string;
  data?: string;
  name?: string;
  children?: Node[];
}

/**
 * Text of an element with a newline per block (cheerio's `.text()` glues blocks together),
 * runs of spaces collapsed and at most one blank line in a row.
 */
export function blockText($: CheerioAPI, root: unknown): string {
  const parts: string[] = [];
  const walk = (node: Node) => {
    if (node.type === 'text') {
      parts.push((node.data ?? '').replace(/\s+/g, ' '));
      return;
    }
    if (node.type !== 'tag' && node.type !== 'root') return;
    const block = node.name !== undefined && BLOCK_TAGS.has(node.name);
    if (block) parts.push('\n');
    if (node.name === 'td' || node.name === 'th') parts.push(' ');
    for (const child of node.children ?? []) walk(child);
    if (block) parts.push('\n');
  };
  for (const el of $(root as never).toArray() as unknown as Node[]) walk(el);
  return parts
    .join('')
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
