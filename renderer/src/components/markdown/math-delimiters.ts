/**
 * Rewrites LaTeX delimiters models use into the ones remark-math reads, outside code:
 * `\[…\]` and `$$…$$` become display blocks on their own lines (centred), `\(…\)` inline `$…$`.
 * remark-math renders `$$…$$` inside a sentence inline, and does not know `\[…\]` at all.
 */
export function normalizeMath(text: string): string {
  if (!/\\\[|\\\(|\$\$/.test(text)) return text;
  // Fenced code blocks and inline code stay as written.
  const parts = text.split(/(```[\s\S]*?(?:```|$)|`[^`\n]*`)/g);
  return parts
    .map((part, i) => {
      if (i % 2 === 1) return part;
      return part
        .replace(/\\\[([\s\S]+?)\\\]/g, (_m, body: string) => `\n\n$$\n${body.trim()}\n$$\n\n`)
        .replace(/\$\$([\s\S]+?)\$\$/g, (_m, body: string) => `\n\n$$\n${body.trim()}\n$$\n\n`)
        .replace(/\\\(([\s\S]+?)\\\)/g, (_m, body: string) => `$${body.trim()}$`)
        .replace(/\n{3,}/g, '\n\n');
    })
    .join('');
}
