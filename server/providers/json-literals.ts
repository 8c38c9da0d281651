/**
 * Text fragments carried as JSON string literals: the hot path copies a provider's literal into
 * the outgoing frame as it came and decodes the text only where it is needed (saving).
 */

/** True for the hex digit character codes 0-9, A-F, a-f. */
function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

/**
 * True when `literal` is exactly one JSON string literal that can be copied into another JSON
 * document as it is: quoted, no unescaped quote or control character inside, and only JSON's
 * escapes (`\uXXXX` with four hex digits). A provider's escapes mean the same in our frame.
 */
export function isCopyableLiteral(literal: string): boolean {
  const last = literal.length - 1;
  if (last < 1 || literal.charCodeAt(0) !== 34 || literal.charCodeAt(last) !== 34) return false;
  for (let i = 1; i < last; i += 1) {
    const c = literal.charCodeAt(i);
    if (c < 32 || c === 34) return false;
    if (c !== 92) continue;
    const e = literal.charCodeAt(i + 1);
    if (e === 117) {
      if (i + 5 >= last || !isHex(literal.charCodeAt(i + 2)) || !isHex(literal.charCodeAt(i + 3)) || !isHex(literal.charCodeAt(i + 4)) || !isHex(literal.charCodeAt(i + 5))) return false;
      i += 5;
    } else if (i + 1 < last && (e === 34 || e === 92 || e === 47 || e === 98 || e === 102 || e === 110 || e === 114 || e === 116)) {
      i += 1;
    } else {
      return false;
    }
  }
  return true;
}

/**
 * The text of JSON string literals (as `isCopyableLiteral` accepts them), joined, in one parse:
 * their insides put together are one literal (escapes never span two), so a surrogate pair
 * split across two literals comes out whole.
 */
export function decodeLiterals(literals: readonly string[]): string {
  let inside = '';
  for (const literal of literals) inside += literal.slice(1, -1);
  return JSON.parse(`"${inside}"`) as string;
}
