/**
 * Entity names → keys. Two mentions are the same entity when their keys are equal: lower case,
 * NFKC, no possessive, no dots inside acronyms (U.N. = UN), punctuation turned into spaces.
 */

const HONORIFICS = new Set(['mr', 'mrs', 'ms', 'miss', 'dr', 'prof', 'professor', 'sir', 'dame', 'st', 'rev', 'hon', 'lord', 'lady']);

/** The key of an entity name ('' when nothing meaningful is left). */
export function entityKey(name: string): string {
  const words = name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/(\p{L})\.(?=\p{L})/gu, '$1')
    .replace(/['\u2019]s\b/g, '')
    .replace(/[^\p{L}\p{N}&+]+/gu, ' ')
    .trim()
    .split(' ')
    .filter((w) => w.length > 0);
  while (words.length > 1 && HONORIFICS.has(words[0]!)) words.shift();
  const key = words.join(' ');
  if (key.length < 2 || /^\d+$/.test(key)) return '';
  return key.slice(0, 200);
}

/** A display name: trimmed of surrounding punctuation and a trailing possessive. */
export function displayName(name: string): string {
  return name
    .normalize('NFKC')
    .replace(/\s+/g, ' ')
    .replace(/['\u2019]s$/u, '')
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}.)]+$/gu, '')
    .replace(/(?<!\p{Lu})\.$/u, '')
    .trim()
    .slice(0, 200);
}

/** Every run of up to `max` consecutive words of the text's key form: what entity keys a query may name. */
export function keyGrams(text: string, max = 6): string[] {
  const words = entityKey(text).split(' ').filter((w) => w.length > 0);
  const out = new Set<string>();
  for (let i = 0; i < words.length; i += 1) {
    for (let n = 1; n <= max && i + n <= words.length; n += 1) out.add(words.slice(i, i + n).join(' '));
  }
  return [...out].filter((k) => k.length >= 2);
}
