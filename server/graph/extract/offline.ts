import { loadExports } from '../../platform/library-exports';
import { entityKey, displayName } from './normalize';
import { CO_OCCURS, MAX_ENTITIES_PER_CHUNK, type ChunkExtraction, type ExtractedEntity } from './types';

/** The part of a compromise term this extractor reads (`doc.docs`: sentences of terms; 2× faster than `.json()`). */
interface TermJson {
  text: string;
  post: string;
  tags: Set<string>;
}
interface Doc {
  docs: TermJson[][];
}
type Nlp = (text: string) => Doc;

let nlpPromise: Promise<Nlp> | undefined;

/** compromise, loaded on first use (≈ 1 s), never at service start. */
function loadNlp(): Promise<Nlp> {
  nlpPromise ??= loadExports(import('compromise'), 'compromise', 'default').then((m) => m.default as unknown as Nlp);
  return nlpPromise;
}

/** Capitalised words that are never part of a name. */
const SKIP_TAGS = new Set(['Date', 'Month', 'WeekDay', 'Pronoun', 'Value', 'Time']);
/** Capitalised words that do not start a name ("The", "In", "Yesterday"); verbs only at the start of a sentence ("Visit"). */
const LEAD_SKIP = new Set(['Determiner', 'Preposition', 'Conjunction', 'Adverb', 'QuestionWord', 'Pronoun']);
/** Lower-case words that may join two capitalised parts of one name ("Bank of England"). */
const CONNECTORS = new Set(['of', 'de', 'la', 'le', 'du', 'da', 'van', 'von', 'der', 'den', '&']);
/** Tags that make a capitalised run a name. */
const NAME_TAGS = new Set(['ProperNoun', 'Person', 'Place', 'Organization', 'Acronym']);

const hasAny = (t: TermJson, set: ReadonlySet<string>) => {
  for (const tag of t.tags) if (set.has(tag)) return true;
  return false;
};

function typeOf(terms: readonly TermJson[]): string {
  const tags = new Set(terms.flatMap((t) => [...t.tags]));
  if (tags.has('Person') && !tags.has('Organization') && !tags.has('Place')) return 'person';
  if (tags.has('Organization')) return 'organization';
  if (tags.has('Place')) return 'place';
  if (tags.has('Person')) return 'person';
  return 'topic';
}

const capital = (t: TermJson) => /^\p{Lu}/u.test(t.text) && !hasAny(t, SKIP_TAGS);
/** Punctuation after a term ends a name ("Tromsø, Norway."), except after an honorific ("Dr."). */
const ends = (t: TermJson) => /[,;:.!?()"]/.test(t.post) && !t.tags.has('Honorific');

/** Runs of capitalised words (joined by "of", "de" …) in one sentence, cut at punctuation. */
function capitalRuns(terms: readonly TermJson[]): TermJson[][] {
  const runs: TermJson[][] = [];
  let i = 0;
  while (i < terms.length) {
    if (!capital(terms[i]!)) {
      i += 1;
      continue;
    }
    const run: TermJson[] = [terms[i]!];
    let j = i;
    while (!ends(terms[j]!)) {
      const next = terms[j + 1];
      const after = terms[j + 2];
      if (next && capital(next)) {
        run.push(next);
        j += 1;
      } else if (next && after && CONNECTORS.has(next.text.toLowerCase()) && !ends(next) && capital(after)) {
        run.push(next, after);
        j += 2;
      } else break;
    }
    // Leading words that do not start names; a verb only as the first word of the sentence.
    let start = 0;
    while (start < run.length && (hasAny(run[start]!, LEAD_SKIP) || (i === 0 && start === 0 && run[0]!.tags.has('Verb')))) start += 1;
    const name = run.slice(start);
    if (name.length > 0 && name.some((t) => hasAny(t, NAME_TAGS))) runs.push(name);
    i = j + 1;
  }
  return runs;
}

/** Entities of one text: capitalised runs holding a proper noun (people, places, organisations, other named topics). */
function entitiesOf(nlp: Nlp, text: string): ExtractedEntity[] {
  const counts = new Map<string, { entity: ExtractedEntity; n: number; first: number }>();
  let order = 0;
  for (const sentence of nlp(text).docs) {
    for (const terms of capitalRuns(sentence)) {
      const name = displayName(terms.map((t) => t.text).join(' '));
      const key = entityKey(name);
      if (!key) continue;
      const type = typeOf(terms);
      const seen = counts.get(key);
      if (seen) {
        seen.n += 1;
        if (seen.entity.type === 'topic' && type !== 'topic') seen.entity.type = type;
      } else counts.set(key, { entity: { name, type }, n: 1, first: (order += 1) });
    }
  }

  // A lone last word ("Holm", "Falcon") names the one fuller name in the same chunk that ends with it.
  const fuller = [...counts.entries()].filter(([key, v]) => key.includes(' ') && v.entity.type !== 'place');
  for (const [key, value] of [...counts.entries()]) {
    if (key.includes(' ') || (value.entity.type !== 'person' && value.entity.type !== 'topic')) continue;
    const full = fuller.filter(([k]) => k.endsWith(` ${key}`));
    if (full.length === 1) {
      full[0]![1].n += value.n;
      counts.delete(key);
    }
  }
  return [...counts.values()]
    .sort((a, b) => b.n - a.n || a.first - b.first)
    .slice(0, MAX_ENTITIES_PER_CHUNK)
    .map((v) => v.entity);
}

/**
 * The offline extractor: compromise finds the named entities of each chunk (people, places,
 * organisations, other proper nouns as topics); every pair named in one chunk is related by
 * co-occurrence. No network, no model.
 */
export async function extractOffline(texts: readonly string[]): Promise<ChunkExtraction[]> {
  const nlp = await loadNlp();
  return texts.map((text) => {
    const entities = entitiesOf(nlp, text);
    const relations = [];
    for (let i = 0; i < entities.length; i += 1) {
      for (let j = i + 1; j < entities.length; j += 1) relations.push({ source: entities[i]!.name, target: entities[j]!.name, type: CO_OCCURS });
    }
    return { entities, relations };
  });
}
