/**
 * How deeply a Markdown text nests, measured in one pass over its characters without parsing:
 * the deepest of block quotes (`> > >`), list indentation (a list marker after N levels of
 * indentation), brackets and parentheses (links in links), and HTML elements opened and not
 * closed. Used to refuse text that would make a renderer recurse thousands of levels deep; it
 * over-counts rather than under-counts (an unclosed `[` counts).
 */
export function markdownDepth(text: string): number {
  let deepest = 0;
  let brackets = 0;
  let tags = 0;
  let lineStart = true;
  let quotes = 0;
  let indent = 0;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i]!;
    if (ch === '\n') {
      lineStart = true;
      quotes = 0;
      indent = 0;
      continue;
    }
    if (lineStart) {
      if (ch === ' ') {
        indent += 1;
        continue;
      }
      if (ch === '\t') {
        indent += 4;
        continue;
      }
      if (ch === '>') {
        quotes += 1;
        indent = 0;
        if (quotes > deepest) deepest = quotes;
        continue;
      }
      lineStart = false;
      const listItem = (ch === '-' || ch === '*' || ch === '+' || (ch >= '0' && ch <= '9')) && indent > 0;
      if (listItem) deepest = Math.max(deepest, quotes + Math.floor(indent / 2) + 1);
    }
    if (ch === '[' || ch === '(') {
      brackets += 1;
      if (brackets > deepest) deepest = brackets;
    } else if ((ch === ']' || ch === ')') && brackets > 0) {
      brackets -= 1;
    } else if (ch === '<') {
      const next = text[i + 1];
      if (next === '/') {
        if (tags > 0) tags -= 1;
      } else if (next !== undefined && /[A-Za-z]/.test(next)) {
        const close = tagEnd(text, i);
        const selfClosing = close > 0 && text[close - 1] === '/';
        const voidTag = /^<(br|hr|img|input|meta|link|wbr|area|col|source|track|embed)\b/i.test(text.slice(i, i + 8));
        if (close > 0 && !selfClosing && !voidTag) {
          tags += 1;
          if (tags > deepest) deepest = tags;
        }
      }
    }
  }
  return deepest;
}

/** Where the tag opened at `start` ends (`>`), looking at most 200 characters ahead; -1 if not there. */
function tagEnd(text: string, start: number): number {
  const limit = Math.min(text.length, start + 200);
  for (let j = start + 1; j < limit; j += 1) if (text[j] === '>') return j;
  return -1;
}
