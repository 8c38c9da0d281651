/**
 * Turns text into index terms: lower-cased words (letters and digits, diacritics folded),
 * English stop words dropped, then a light Porter-style stemmer (plural, -ed, -ing and a few
 * derivational suffixes). The index, the offline embedder and queries all use this one analyser,
 * so a query meets the documents in the same form.
 */

const WORD = /[\p{L}\p{N}]+/gu;
const NON_ASCII = /[^ -~\t\n\r]/;
const MARKS = /\p{M}+/gu;
/** Longest word kept: longer runs are hashes, base64 or noise. */
const MAX_WORD = 40;

/** Common English function words (they carry no topic). */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other ' +
    'our ours ourselves out over own same she should so some such than that the their theirs them themselves then there ' +
    'these they this those through to too under until up very was we were what when where which while who whom why will ' +
    'with would you your yours yourself yourselves s t'
  ).split(' '),
);

const VOWEL = /[aeiouy]/;
const STEP2: ReadonlyArray<readonly [string, string]> = [
  ['ational', 'ate'], ['tional', 'tion'], ['ization', 'ize'], ['fulness', 'ful'], ['ousness', 'ous'], ['iveness', 'ive'],
  ['biliti', 'ble'], ['alism', 'al'], ['aliti', 'al'], ['iviti', 'ive'], ['ation', 'ate'], ['entli', 'ent'], ['ousli', 'ous'],
  ['alli', 'al'], ['izer', 'ize'], ['ator', 'ate'], ['ement', ''], ['ment', ''], ['ness', ''], ['ical', 'ic'], ['ful', ''],
];

/** A light English stemmer: Porter step 1 plus common derivational suffixes. Deterministic, no allocations past the result. */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  let w = word;
  // Step 1a: plurals.
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ies')) w = `${w.slice(0, -3)}i`;
  else if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) w = w.slice(0, -1);
  // Step 1b: -eed, -ed, -ing.
  if (w.endsWith('eed')) {
    if (w.length > 4) w = w.slice(0, -1);
  } else {
    for (const suffix of ['ed', 'ing']) {
      if (w.endsWith(suffix) && w.length - suffix.length >= 3 && VOWEL.test(w.slice(0, -suffix.length))) {
        w = w.slice(0, -suffix.length);
        if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) w += 'e';
        else if (w.length > 2 && w[w.length - 1] === w[w.length - 2] && !'lsz'.includes(w[w.length - 1]!)) w = w.slice(0, -1);
        break;
      }
    }
  }
  // Step 1c: y → i after a consonant.
  if (w.endsWith('y') && w.length > 3 && !VOWEL.test(w[w.length - 2]!)) w = `${w.slice(0, -1)}i`;
  // Derivational suffixes, only on long enough stems.
  for (const [suffix, replacement] of STEP2) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      w = w.slice(0, -suffix.length) + replacement;
      break;
    }
  }
  if (w.endsWith('e') && w.length > 5) w = w.slice(0, -1);
  return w;
}

/** Folds diacritics (é → e) when the text has any non-ASCII character. */
function fold(text: string): string {
  const lower = text.toLowerCase();
  return NON_ASCII.test(lower) ? lower.normalize('NFKD').replace(MARKS, '') : lower;
}

/** Index terms of `text`, in order, with repeats (stop words removed, stemmed). */
export function analyze(text: string): string[] {
  const out: string[] = [];
  const cache = stemCache;
  for (const match of fold(text).matchAll(WORD)) {
    const word = match[0];
    if (word.length > MAX_WORD || STOP_WORDS.has(word)) continue;
    let stemmed = cache.get(word);
    if (stemmed === undefined) {
      stemmed = stem(word);
      if (cache.size > 200_000) cache.clear();
      cache.set(word, stemmed);
    }
    out.push(stemmed);
  }
  return out;
}

const stemCache = new Map<string, string>();
