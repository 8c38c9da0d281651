import { stemmer as danishStem } from '@orama/stemmers/danish';
import { stemmer as dutchStem } from '@orama/stemmers/dutch';
import { stemmer as finnishStem } from '@orama/stemmers/finnish';
import { stemmer as frenchStem } from '@orama/stemmers/french';
import { stemmer as germanStem } from '@orama/stemmers/german';
import { stemmer as italianStem } from '@orama/stemmers/italian';
import { stemmer as norwegianStem } from '@orama/stemmers/norwegian';
import { stemmer as portugueseStem } from '@orama/stemmers/portuguese';
import { stemmer as russianStem } from '@orama/stemmers/russian';
import { stemmer as spanishStem } from '@orama/stemmers/spanish';
import { stemmer as swedishStem } from '@orama/stemmers/swedish';
import { stemmer as turkishStem } from '@orama/stemmers/turkish';
import { stemmer as ukrainianStem } from '@orama/stemmers/ukrainian';
import { stopwords as danishStops } from '@orama/stopwords/danish';
import { stopwords as dutchStops } from '@orama/stopwords/dutch';
import { stopwords as finnishStops } from '@orama/stopwords/finnish';
import { stopwords as frenchStops } from '@orama/stopwords/french';
import { stopwords as germanStops } from '@orama/stopwords/german';
import { stopwords as italianStops } from '@orama/stopwords/italian';
import { stopwords as japaneseStops } from '@orama/stopwords/japanese';
import { stopwords as mandarinStops } from '@orama/stopwords/mandarin';
import { stopwords as norwegianStops } from '@orama/stopwords/norwegian';
import { stopwords as portugueseStops } from '@orama/stopwords/portuguese';
import { stopwords as russianStops } from '@orama/stopwords/russian';
import { stopwords as spanishStops } from '@orama/stopwords/spanish';
import { stopwords as swedishStops } from '@orama/stopwords/swedish';
import { stopwords as turkishStops } from '@orama/stopwords/turkish';
import { stopwords as ukrainianStops } from '@orama/stopwords/ukrainian';
import { franc } from 'franc-min';
import type { AnalysisLanguage } from '../../contracts/knowledge';
import { analyze } from './text-analysis';

/**
 * Languages the index analyses: Orama's Snowball stemmers and stop-word lists per language
 * (`@orama/stemmers`, `@orama/stopwords`), word segmentation by `Intl.Segmenter` for scripts
 * written without spaces. English keeps Parley's tuned analyser (`text-analysis.ts`).
 */
interface LanguageSpec {
  /** ISO 639-3 code as the detector (franc) names it. */
  iso3: string;
  stem?: (word: string) => string;
  stops: readonly string[];
  /** Words are found by `Intl.Segmenter` (no spaces between words). */
  segment?: string;
}

const SPECS = {
  english: { iso3: 'eng', stops: [] },
  german: { iso3: 'deu', stem: germanStem, stops: germanStops },
  french: { iso3: 'fra', stem: frenchStem, stops: frenchStops },
  spanish: { iso3: 'spa', stem: spanishStem, stops: spanishStops },
  italian: { iso3: 'ita', stem: italianStem, stops: italianStops },
  portuguese: { iso3: 'por', stem: portugueseStem, stops: portugueseStops },
  dutch: { iso3: 'nld', stem: dutchStem, stops: dutchStops },
  swedish: { iso3: 'swe', stem: swedishStem, stops: swedishStops },
  norwegian: { iso3: 'nob', stem: norwegianStem, stops: norwegianStops },
  danish: { iso3: 'dan', stem: danishStem, stops: danishStops },
  finnish: { iso3: 'fin', stem: finnishStem, stops: finnishStops },
  turkish: { iso3: 'tur', stem: turkishStem, stops: turkishStops },
  russian: { iso3: 'rus', stem: russianStem, stops: russianStops },
  ukrainian: { iso3: 'ukr', stem: ukrainianStem, stops: ukrainianStops },
  chinese: { iso3: 'cmn', stops: mandarinStops, segment: 'zh' },
  japanese: { iso3: 'jpn', stops: japaneseStops, segment: 'ja' },
} satisfies Record<AnalysisLanguage, LanguageSpec>;

/** A language the index can analyse. */
export type Language = keyof typeof SPECS;
export const LANGUAGES = Object.keys(SPECS) as Language[];
export const DEFAULT_LANGUAGE: Language = 'english';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && Object.hasOwn(SPECS, value);
}

const BY_ISO3 = new Map<string, Language>(LANGUAGES.map((l) => [SPECS[l].iso3, l]));
BY_ISO3.set('nno', 'norwegian');

// і ї є ґ І Ї Є Ґ and ы э ё ъ Ы Э Ё Ъ, written as escapes: a non-ASCII letter anywhere in a built chunk
// makes V8 keep that chunk's whole source in two bytes a character.
const UKRAINIAN_ONLY = /[\u0456\u0457\u0454\u0491\u0406\u0407\u0404\u0490]/u;
const RUSSIAN_ONLY = /[\u044b\u044d\u0451\u044a\u042b\u042d\u0401\u042a]/u;

/** Text the detector reads at most (the start of a document is enough and keeps it fast). */
const DETECT_CHARS = 4000;

/**
 * The language of a text, among {@link LANGUAGES} (franc's trigram detector), or undefined
 * when the text is too short or in a language the index does not analyse.
 */
export function detectLanguage(text: string): Language | undefined {
  const sample = text.slice(0, DETECT_CHARS);
  const language = BY_ISO3.get(franc(sample, { minLength: 10, only: [...BY_ISO3.keys()] }));
  // Trigrams confuse short Russian and Ukrainian texts; letters only one of them uses decide.
  if (language === 'ukrainian' && !UKRAINIAN_ONLY.test(sample)) return 'russian';
  if (language === 'russian' && !RUSSIAN_ONLY.test(sample) && UKRAINIAN_ONLY.test(sample)) return 'ukrainian';
  return language;
}

const WORD = /[\p{L}\p{N}]+/gu;
const MARKS = /\p{M}+/gu;
const MAX_WORD = 40;

/** Folds diacritics after stemming (so "Häuser" and "Hauser" meet). */
const fold = (word: string) => word.normalize('NFKD').replace(MARKS, '');

function makeAnalyzer(language: Language): (text: string) => string[] {
  if (language === 'english') return analyze;
  const spec: LanguageSpec = SPECS[language];
  const stops = new Set(spec.stops);
  const cache = new Map<string, string>();
  const term = (word: string): string | undefined => {
    if (word.length > MAX_WORD || stops.has(word)) return undefined;
    let stemmed = cache.get(word);
    if (stemmed === undefined) {
      stemmed = fold(spec.stem ? spec.stem(word) : word);
      if (cache.size > 200_000) cache.clear();
      cache.set(word, stemmed);
    }
    return stemmed;
  };
  if (spec.segment) {
    const segmenter = new Intl.Segmenter(spec.segment, { granularity: 'word' });
    return (text) => {
      const out: string[] = [];
      for (const part of segmenter.segment(text.toLowerCase())) {
        if (!part.isWordLike) continue;
        const t = term(part.segment);
        if (t) out.push(t);
      }
      return out;
    };
  }
  return (text) => {
    const out: string[] = [];
    for (const match of text.toLowerCase().matchAll(WORD)) {
      const t = term(match[0]);
      if (t) out.push(t);
    }
    return out;
  };
}

const analyzers = new Map<Language, (text: string) => string[]>();

/** Index terms of a text in a language: words, stop words dropped, stemmed, diacritics folded. */
export function analyzerFor(language: Language): (text: string) => string[] {
  let analyzer = analyzers.get(language);
  if (!analyzer) {
    analyzer = makeAnalyzer(language);
    analyzers.set(language, analyzer);
  }
  return analyzer;
}
