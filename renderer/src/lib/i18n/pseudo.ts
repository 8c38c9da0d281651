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

/** A whole catalog in the pseudo-locale. */
export function pseudoCatalog(source: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(source).map(([key, text]) => [key, pseudoText(text)]));
}
