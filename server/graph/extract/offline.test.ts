import { describe, expect, it } from 'vitest';
import { extractOffline } from './offline';
import { CO_OCCURS } from './types';

describe('offline extraction', () => {
  it('finds people, places, organisations and named topics, each once per chunk', async () => {
    const [result] = await extractOffline([
      'Marie Curie worked at the University of Paris with Pierre Curie. The Nobel Prize was awarded by the Royal Swedish Academy of Sciences in Stockholm. Dr. Curie later visited Warsaw.',
    ]);
    const byName = Object.fromEntries(result!.entities.map((e) => [e.name, e.type]));
    expect(byName).toMatchObject({
      'Marie Curie': 'person',
      'Pierre Curie': 'person',
      'University of Paris': 'organization',
      'Royal Swedish Academy of Sciences': 'organization',
      Stockholm: 'place',
      Warsaw: 'place',
      'Nobel Prize': 'topic',
    });
    expect(Object.keys(byName)).not.toContain('The Nobel Prize');
  });

  it('joins a lone last name to the full name in the same chunk', async () => {
    const [result] = await extractOffline(['Project Falcon is run from Bergen. Ingrid Holm leads Project Falcon, and Holm reports monthly.']);
    const names = result!.entities.map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(['Project Falcon', 'Ingrid Holm', 'Bergen']));
    expect(names).not.toContain('Holm');
    expect(names).not.toContain('Falcon');
  });

  it('relates every pair of entities named in one chunk by co-occurrence, and nothing across chunks', async () => {
    const [a, b] = await extractOffline(['Ingrid Holm works in Oslo for NASA.', 'Tomas Berg lives in Bergen.']);
    expect(a!.relations).toHaveLength(3);
    expect(a!.relations.every((r) => r.type === CO_OCCURS)).toBe(true);
    expect(b!.relations.map((r) => [r.source, r.target])).toEqual([['Tomas Berg', 'Bergen']]);
  });

  it('gives empty results for text without names', async () => {
    expect(await extractOffline(['the quick brown fox jumps over the lazy dog', ''])).toEqual([
      { entities: [], relations: [] },
      { entities: [], relations: [] },
    ]);
  });
});
