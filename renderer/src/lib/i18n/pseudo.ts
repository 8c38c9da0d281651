/** Accented look-alikes: readable, yet obviously not English, and wider than the original letters. */
const ACCENTED: Record<string, string> = {
  a: 'á', b: 'ƀ', c: 'ç', d: 'ð', e: 'é', f: 'ƒ', g: 'ĝ', h: 'ĥ', i: 'î', j: 'ĵ', k: 'ķ', l: 'ļ', m: 'ɱ',
  n: 'ñ', o: 'ö', p: 'þ', q: 'ǫ', r: 'ŕ', s: 'š', t: 'ţ', u: 'û', v: 'ṽ', w: 'ŵ', x: 'ẋ', y: 'ý', z: 'ž',
  A: 'Å', B: 'Ɓ', C: 'Ç', D: 'Ð', E: 'É', F: 'Ƒ', G: 'Ĝ', H: 'Ĥ', I: 'Î', J: 'Ĵ', K: 'Ķ', L: 'Ļ', M: 'Ṁ',
  N: 'Ñ', O: 'Ö', P: 'Þ', Q: 'Ǫ', R: 'Ŕ', S: 'Š', T: 'Ţ', U: 'Û', V: 'Ṽ', W: 'Ŵ', X: 'Ẋ', Y: 'Ý', Z: 'Ž',
};

/** What the pseudo text is padded with to reach about 140% of the English length. */
const PAD = ' ·ţŵö ţĥŕéé ƒöûŕ ƒîṽé šîẋ šéṽéñ';

/**
 * One English text in the pseudo-locale: letters accented, `{{placeholders}}` and `<tags>` kept,
 * about 40% longer, between brackets so a clipped end shows.
 */
export function pseudoText(text: string): string {
  const accented = text
    .split(/(\{\{[^}]*\}\}|<[^>]*>)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/[A-Za-z]/g, (c) => ACCENTED[c] ?? c)))
    .join('');
  const extra = Math.ceil(text.length * 0.4);
  return `[${accented}${PAD.repeat(Math.ceil(extra / PAD.length)).slice(0, extra)}]`;
}

/**
 * One English text forced right to left: each run of words between placeholders and tags is
 * wrapped in a right-to-left override, so it reads (mirrored) like a right-to-left script while
 * names and numbers filled in stay as they are.
 */
export function pseudoRtlText(text: string): string {
  return text
    .split(/(\{\{[^}]*\}\}|<[^>]*>)/)
    .map((part, i) => (i % 2 === 1 || !part.trim() ? part : `\u202E${part}\u202C`))
    .join('');
}

/** A whole catalog in a pseudo-locale: lengthened and accented (`ltr`), or forced right to left (`rtl`). */
export function pseudoCatalog(source: Record<string, string>, dir: 'ltr' | 'rtl' = 'ltr'): Record<string, string> {
  const convert = dir === 'rtl' ? pseudoRtlText : pseudoText;
  return Object.fromEntries(Object.entries(source).map(([key, text]) => [key, convert(text)]));
}
