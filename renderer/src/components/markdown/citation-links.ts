/** Splits text into prose (even indexes) and code (odd indexes: fenced blocks, inline code). */
export function splitCode(text: string): string[] {
  return text.split(/(```[\s\S]*?(?:```|$)|`[^`\n]*`)/g);
}

/**
 * Turns `[n]` citation markers (1 ≤ n ≤ count) in prose into `#cite-n` links, which the answer
 * renders as buttons that open the n-th source passage. Links and code are left alone.
 */
export function linkCitations(text: string, count: number): string {
  if (count <= 0 || !/\[\d/.test(text)) return text;
  return splitCode(text)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part.replace(/\[(\d{1,3})\](?![(:[])/g, (m, n: string) => {
            const k = Number(n);
            return k >= 1 && k <= count ? `[\\[${k}\\]](#cite-${k})` : m;
          }),
    )
    .join('');
}
