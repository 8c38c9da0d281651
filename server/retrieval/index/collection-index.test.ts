import { describe, expect, it } from 'vitest';
import { offlineEmbed, OFFLINE_DIMS } from '../embedding/offline-embedder';
import { CollectionIndex, effectiveWeight } from './collection-index';
import { VectorStore } from './vector-store';
import { simdAvailable } from './simd-dot';

const DOCS = [
  'The launch code for Project Falcon is AZURE-7421.',
  'Tomatoes need full sun and regular watering.',
  'Sea otters hold hands while they sleep.',
  'The lighthouse on Gull Island was built in 1874.',
];

function build(): CollectionIndex {
  const index = CollectionIndex.empty(OFFLINE_DIMS, 'test');
  index.add(DOCS.map((text, i) => ({ id: i + 1, fileId: `f${i % 2}`, text, vector: offlineEmbed(text) })));
  return index;
}

const search = (index: CollectionIndex, text: string, mode: 'hybrid' | 'text' | 'vector', weight = 0.5) =>
  index.search({ text, vector: offlineEmbed(text), mode, weight, fusion: 'blend', limit: 4 });

describe('collection index (Orama with Parley components)', () => {
  it('ranks the chunk holding every query word first with a lexical score of 1', () => {
    const [top, next] = search(build(), 'launch code Falcon', 'text');
    expect(top).toMatchObject({ id: 1, fileId: 'f0' });
    expect(top!.lexical).toBeGreaterThan(0.9);
    expect(next).toBeUndefined();
  });

  it('scores 0..1, best first, and blends the two signals by the weight', () => {
    const index = build();
    for (const weight of [0, 0.3, 1]) {
      const hits = search(index, 'otters sleeping', 'hybrid', weight);
      for (const [i, hit] of hits.entries()) {
        expect(hit.score).toBeGreaterThanOrEqual(0);
        expect(hit.score).toBeLessThan(1);
        if (i > 0) expect(hit.score).toBeLessThanOrEqual(hits[i - 1]!.score);
        if (weight === 1) expect(hit.score).toBeCloseTo(hit.lexical, 5);
        if (weight === 0) expect(hit.score).toBeCloseTo(hit.semantic, 5);
      }
    }
  });

  it('keeps chunks that hold every query word apart instead of tying them at 1', () => {
    const index = CollectionIndex.empty(OFFLINE_DIMS, 'test');
    const texts = ['Basil needs watering every morning in a sunny window box.', 'Basil basil watering: basil wants watering.', 'Basil watering.'];
    index.add(texts.map((text, i) => ({ id: i + 1, fileId: `f${i}`, text, vector: offlineEmbed(text) })));
    const hits = search(index, 'basil watering', 'text');
    expect(hits).toHaveLength(3);
    expect(new Set(hits.map((h) => h.score)).size).toBe(3);
    // At least two of them score past "every word present" (a cap at 1 made them tie).
    expect(hits.filter((h) => h.lexical > 0.9).length).toBeGreaterThanOrEqual(2);
  });

  it('folds the best lexical hits into the query vector for ranking, but reports the query’s own similarity', () => {
    const index = build();
    const ask = (lexicalFeedback: number) => index.search({ text: 'otters sleeping', vector: offlineEmbed('otters sleeping'), mode: 'hybrid', weight: 0.5, fusion: 'blend', limit: 4, lexicalFeedback });
    const plain = new Map(ask(0).map((h) => [h.id, h]));
    const fed = ask(3);
    expect(fed[0]!.id).toBe(3);
    for (const hit of fed) {
      expect(hit.semantic).toBeCloseTo(plain.get(hit.id)!.semantic, 5);
      expect(hit.score).toBeCloseTo(plain.get(hit.id)!.score, 5);
    }
  });

  it('trusts a weak embedder less: effective weight keeps 0 and 1, moves 0.5 towards BM25', () => {
    expect(effectiveWeight(0, 0.25)).toBe(0);
    expect(effectiveWeight(1, 0.25)).toBe(1);
    expect(effectiveWeight(0.5, 0.25)).toBeCloseTo(0.8, 5);
    expect(effectiveWeight(0.5)).toBe(0.5);
  });

  it('finds word forms through the stemmer and the character trigrams', () => {
    expect(search(build(), 'sleeping otter', 'text')[0]!.id).toBe(3);
    expect(search(build(), 'lighthouses', 'vector')[0]!.id).toBe(4);
  });

  it('forgets a removed file through Orama and takes it back when inserted again', () => {
    const index = build();
    expect(index.removeFile('f1')).toBe(2);
    expect(index.has('f1')).toBe(false);
    expect(search(index, 'tomatoes watering', 'text')).toEqual([]);
    expect(index.count).toBe(2);
    expect(search(index, 'otters', 'hybrid')[0]!.id).toBe(3);
    expect(search(index, 'tomatoes', 'hybrid').map((h) => h.id)).not.toContain(2);
    index.add([{ id: 2, fileId: 'f1', text: DOCS[1]!, vector: offlineEmbed(DOCS[1]!) }]);
    const [again, twice] = search(index, 'tomatoes watering', 'text');
    expect(again).toMatchObject({ id: 2, fileId: 'f1' });
    expect(twice).toBeUndefined();
  });

  it('answers full-text, vector and hybrid queries through Orama search', () => {
    const index = build();
    expect(index.db.data.index.vectorIndexes.embedding).toBeDefined();
    expect(search(index, 'lighthouse island', 'vector')[0]!.id).toBe(4);
    expect(search(index, 'lighthouse island', 'text')[0]!.semantic).toBe(0);
    expect(search(index, 'lighthouse island', 'vector')[0]!.lexical).toBe(0);
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
