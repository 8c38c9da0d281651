import { describe, expect, it } from 'vitest';
import { offlineEmbed, OFFLINE_DIMS } from './embedding/offline-embedder';
import { HybridIndex } from './hybrid-index';
import { VectorStore } from './vector-store';
import { simdAvailable } from './simd-dot';

const DOCS = [
  'The launch code for Project Falcon is AZURE-7421.',
  'Tomatoes need full sun and regular watering.',
  'Sea otters hold hands while they sleep.',
  'The lighthouse on Gull Island was built in 1874.',
];

function build(): HybridIndex {
  const index = new HybridIndex(OFFLINE_DIMS, 'test');
  index.add(DOCS.map((text, i) => ({ id: i + 1, fileId: `f${i % 2}`, text, vector: offlineEmbed(text) })));
  return index;
}

const search = (index: HybridIndex, text: string, mode: 'hybrid' | 'text' | 'vector', weight = 0.5) =>
  index.search({ text, vector: offlineEmbed(text), mode, weight, fusion: 'blend', limit: 4 });

describe('hybrid index', () => {
  it('ranks the chunk holding every query word first with a lexical score of 1', () => {
    const [top, next] = search(build(), 'launch code Falcon', 'text');
    expect(top).toMatchObject({ id: 1, fileId: 'f0' });
    expect(top!.lexical).toBeGreaterThan(0.9);
    expect(next).toBeUndefined();
  });

  it('scores 0..1 and blends the two signals by the weight', () => {
    const index = build();
    for (const weight of [0, 0.3, 1]) {
      for (const hit of search(index, 'otters sleeping', 'hybrid', weight)) {
        expect(hit.score).toBeGreaterThanOrEqual(0);
        expect(hit.score).toBeLessThanOrEqual(1);
        expect(hit.score).toBeCloseTo(weight * hit.lexical + (1 - weight) * hit.semantic, 5);
      }
    }
  });

  it('finds word forms through the stemmer and the character trigrams', () => {
    expect(search(build(), 'sleeping otter', 'text')[0]!.id).toBe(3);
    expect(search(build(), 'lighthouses', 'vector')[0]!.id).toBe(4);
  });

  it('forgets a removed file and survives compaction', () => {
    const index = build();
    expect(index.removeFile('f1')).toBe(2);
    expect(search(index, 'tomatoes watering', 'text')).toEqual([]);
    index.compact();
    expect(index.count).toBe(2);
    expect(search(index, 'otters', 'hybrid')[0]!.id).toBe(3);
    expect(search(index, 'tomatoes', 'hybrid').map((h) => h.id)).not.toContain(2);
  });

  it('round-trips through its exported state with identical results', () => {
    const index = build();
    const copy = HybridIndex.fromState(index.exportState());
    for (const q of ['otters', 'Falcon code', 'watering tomatoes']) expect(search(copy, q, 'hybrid')).toEqual(search(index, q, 'hybrid'));
    copy.add([{ id: 9, fileId: 'f9', text: 'Otters again, with kelp.', vector: offlineEmbed('Otters again, with kelp.') }]);
    expect(search(copy, 'kelp', 'text')[0]!.id).toBe(9);
  });

  it('orders by reciprocal rank fusion when asked', () => {
    const hits = build().search({ text: 'otters', vector: offlineEmbed('otters'), mode: 'hybrid', weight: 0.5, fusion: 'rrf', limit: 4 });
    expect(hits[0]!.id).toBe(3);
    for (let i = 1; i < hits.length; i += 1) expect(hits[i - 1]!.order).toBeGreaterThanOrEqual(hits[i]!.order);
  });
});

describe('vector store', () => {
  it('computes the same dot products with SIMD as a plain loop, across growth', () => {
    expect(simdAvailable()).toBe(true);
    const dims = 64;
    const store = new VectorStore(dims, 2);
    const vectors = Array.from({ length: 300 }, (_, i) => Float32Array.from({ length: dims }, (_, j) => Math.sin(i * 7 + j)));
    vectors.forEach((v, i) => {
      store.ensure(i + 1);
      store.set(i, v);
    });
    const q = Float32Array.from({ length: dims }, (_, j) => Math.cos(j));
    const scores = store.scan(q, vectors.length);
    vectors.forEach((v, i) => {
      let expected = 0;
      for (let j = 0; j < dims; j += 1) expected += v[j]! * q[j]!;
      expect(scores[i]).toBeCloseTo(expected, 3);
    });
  });
});
