import { describe, expect, it } from 'vitest';
import { extractionPrompt, parseExtraction } from './model';

describe('model extraction parsing', () => {
  it('reads the documented shape, with relation ends added as entities', () => {
    const answer = JSON.stringify({
      passages: [
        { passage: 1, entities: [{ name: 'Ingrid Holm', type: 'person' }], relations: [{ source: 'Ingrid Holm', target: 'Project Falcon', type: 'Leads' }] },
        { passage: 2, entities: [{ name: 'Oslo', type: 'Location' }], relations: [] },
      ],
    });
    const [first, second] = parseExtraction(answer, 2);
    expect(first!.entities).toEqual([
      { name: 'Ingrid Holm', type: 'person' },
      { name: 'Project Falcon', type: 'topic' },
    ]);
    expect(first!.relations).toEqual([{ source: 'Ingrid Holm', target: 'Project Falcon', type: 'leads' }]);
    expect(second!.entities).toEqual([{ name: 'Oslo', type: 'place' }]);
  });

  it('tolerates prose, fences, trailing commas, loose field names and out-of-order passages', () => {
    const answer = 'Sure! Here you go:\n```json\n{"passages": [{"passage": "2", "entities": ["NASA",], "relations": [{"from": "NASA", "to": "Ingrid Holm", "relation": "employs"}]}, {"passage": 1, "entities": [{"entity": "Bergen", "label": "organisation"}]},]}\n```';
    const [first, second] = parseExtraction(answer, 2);
    expect(first!.entities).toEqual([{ name: 'Bergen', type: 'organization' }]);
    expect(second!.entities.map((e) => e.name)).toEqual(['NASA', 'Ingrid Holm']);
    expect(second!.relations).toEqual([{ source: 'NASA', target: 'Ingrid Holm', type: 'employs' }]);
  });

  it('leaves passages it cannot read undefined, and drops self-relations and nameless entities', () => {
    expect(parseExtraction('I cannot help with that.', 2)).toEqual([undefined, undefined]);
    const [only, missing] = parseExtraction('[{"entities": [{"name": ""}, {"name": "Oslo"}], "relations": [{"source": "Oslo", "target": "oslo"}]}]', 2);
    expect(only).toEqual({ entities: [{ name: 'Oslo', type: 'topic' }], relations: [] });
    expect(missing).toBeUndefined();
  });

  it('numbers the passages in the prompt and bounds their length', () => {
    const prompt = extractionPrompt(['first text', 'x'.repeat(10_000)]);
    expect(prompt).toContain('Passage 1:\n"""\nfirst text');
    expect(prompt).toContain('Passage 2:');
    expect(prompt.length).toBeLessThan(5_000);
  });
});
