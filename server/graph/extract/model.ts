import { extractJsonValues } from '../../tasks';
import { displayName, entityKey } from './normalize';
import { MAX_ENTITIES_PER_CHUNK, type ChunkExtraction, type ExtractedEntity, type ExtractedRelation } from './types';

/** Chunks per model call. */
export const MODEL_BATCH = 4;
/** Longest passage sent (characters). */
const MAX_PASSAGE = 3000;

/** The prompt asking the task model for the entities and relations of numbered passages. */
export function extractionPrompt(texts: readonly string[]): string {
  const passages = texts.map((t, i) => `Passage ${i + 1}:\n"""\n${t.slice(0, MAX_PASSAGE)}\n"""`).join('\n\n');
  return [
    'Extract the named entities and the relations between them from each numbered passage below.',
    'Entities: people, places, organizations, and other important named things (projects, products, events, works, concepts) as topics. Write each name as it appears in the passage.',
    'Entity types: person, place, organization, topic.',
    'Relations: only between entities of the same passage, typed with a short snake_case verb phrase such as works_for, located_in, leads, part_of, founded.',
    'Answer with JSON only, no prose, in exactly this shape:',
    '{"passages": [{"passage": 1, "entities": [{"name": "…", "type": "person"}], "relations": [{"source": "…", "target": "…", "type": "works_for"}]}]}',
    '',
    passages,
  ].join('\n');
}

const str = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

function entityOf(raw: unknown): ExtractedEntity | undefined {
  if (typeof raw === 'string') return raw.trim() ? { name: raw.trim(), type: 'topic' } : undefined;
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as Record<string, unknown>;
  const name = str(r.name) || str(r.entity) || str(r.text);
  if (!name) return undefined;
  const type = (str(r.type) || str(r.label) || 'topic').toLowerCase().replace(/[^a-z0-9_]+/g, '_').slice(0, 40) || 'topic';
  return { name, type: type === 'organisation' ? 'organization' : type === 'location' ? 'place' : type };
}

function relationOf(raw: unknown): ExtractedRelation | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as Record<string, unknown>;
  const source = str(r.source) || str(r.from) || str(r.subject) || str(r.head);
  const target = str(r.target) || str(r.to) || str(r.object) || str(r.tail);
  const type = (str(r.type) || str(r.relation) || str(r.predicate) || 'related_to').toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '').slice(0, 60);
  if (!source || !target) return undefined;
  return { source, target, type: type || 'related_to' };
}

/** One passage's answer, cleaned: names normalised, relation ends added as entities, self-loops dropped. */
function cleanPassage(raw: Record<string, unknown>): ChunkExtraction {
  const entities = new Map<string, ExtractedEntity>();
  for (const e of Array.isArray(raw.entities) ? raw.entities : []) {
    const entity = entityOf(e);
    const key = entity ? entityKey(entity.name) : '';
    if (entity && key && !entities.has(key)) entities.set(key, { name: displayName(entity.name), type: entity.type });
  }
  const relations: ExtractedRelation[] = [];
  for (const r of Array.isArray(raw.relations) ? raw.relations : []) {
    const relation = relationOf(r);
    if (!relation) continue;
    const a = entityKey(relation.source);
    const b = entityKey(relation.target);
    if (!a || !b || a === b) continue;
    if (!entities.has(a)) entities.set(a, { name: displayName(relation.source), type: 'topic' });
    if (!entities.has(b)) entities.set(b, { name: displayName(relation.target), type: 'topic' });
    relations.push(relation);
  }
  return { entities: [...entities.values()].slice(0, MAX_ENTITIES_PER_CHUNK * 2), relations: relations.slice(0, MAX_ENTITIES_PER_CHUNK * 4) };
}

/**
 * Reads the model's answer for `count` passages. Tolerates prose, fences, a bare array, missing
 * passage numbers (position is used) and loose field names; a passage it cannot read is
 * `undefined` (the caller extracts it offline).
 */
export function parseExtraction(answer: string, count: number): Array<ChunkExtraction | undefined> {
  const out: Array<ChunkExtraction | undefined> = new Array<ChunkExtraction | undefined>(count).fill(undefined);
  for (const value of extractJsonValues(answer)) {
    let list: unknown[] | undefined;
    if (Array.isArray(value)) list = value;
    else if (value && typeof value === 'object') {
      const v = value as Record<string, unknown>;
      if (Array.isArray(v.passages)) list = v.passages;
      else if (Array.isArray(v.entities) && count === 1) list = [v];
    }
    if (!list) continue;
    list.forEach((item, position) => {
      if (!item || typeof item !== 'object' || Array.isArray(item)) return;
      const p = item as Record<string, unknown>;
      const n = typeof p.passage === 'number' ? p.passage - 1 : typeof p.passage === 'string' && /^\d+$/.test(p.passage) ? Number(p.passage) - 1 : position;
      if (n >= 0 && n < count && out[n] === undefined) out[n] = cleanPassage(p);
    });
    if (out.every((x) => x !== undefined)) break;
  }
  return out;
}
