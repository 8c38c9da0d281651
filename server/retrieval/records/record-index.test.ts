import { describe, expect, it } from 'vitest';
import { offlineEmbedder } from '../embedding/embedder';
import { RecordIndex } from './record-index';

describe('record index', () => {
  it('finds records by their words, in the language it analyses, only for holders of a tag', () => {
    const index = RecordIndex.create({ language: 'german' });
    index.put({ key: 'a', text: 'Die Häuser am Fluss', tags: ['u:ann'] });
    index.put({ key: 'b', text: 'Ein Haus im Wald', tags: ['u:bob', 'g:team'] });
    expect(index.search({ text: 'Haus', limit: 10 }).map((h) => h.key).sort()).toEqual(['a', 'b']);
    expect(index.search({ text: 'Haus', limit: 10, anyTag: ['u:ann'] }).map((h) => h.key)).toEqual(['a']);
    expect(index.search({ text: 'Haus', limit: 10, anyTag: ['g:team', 'u:zed'] }).map((h) => h.key)).toEqual(['b']);
    expect(index.search({ text: 'Haus', limit: 10, anyTag: [] })).toEqual([]);
  });

  it('replaces a record by key, again and again, without old words or broken scores', () => {
    const index = RecordIndex.create();
    for (let i = 0; i < 300; i += 1) index.put({ key: 'note', text: `draft number ${i} about lemons` });
    index.put({ key: 'other', text: 'a note about oranges' });
    expect(index.size).toBe(2);
    const hits = index.search({ text: 'lemons', limit: 10 });
    expect(hits.map((h) => h.key)).toEqual(['note']);
    expect(hits[0]!.score).toBeGreaterThan(0.5);
    expect(index.search({ text: 'draft 17', limit: 10 })[0]?.lexical ?? 0).toBeLessThan(0.6);
    expect(index.wantsCompaction).toBe(true);
    expect(index.delete('note')).toBe(true);
    expect(index.delete('note')).toBe(false);
    expect(index.search({ text: 'lemons', limit: 10 })).toEqual([]);
  });

  it('blends BM25 with cosine when it holds vectors', async () => {
    const texts = ['My favourite colour is teal', 'I work in Lyon as a nurse', 'I have two cats'];
    const vectors = await offlineEmbedder.embed(texts);
    const index = RecordIndex.create({ dims: vectors[0]!.length });
    texts.forEach((text, i) => index.put({ key: String(i), text, vector: vectors[i] }));
    const [query] = await offlineEmbedder.embed(['what is my favourite colour']);
    const hits = index.search({ text: 'what is my favourite colour', vector: query, limit: 3, semanticTrust: offlineEmbedder.semanticTrust, fullMatchCosine: offlineEmbedder.fullMatchCosine });
    expect(hits[0]).toMatchObject({ key: '0' });
    expect(hits[0]!.semantic).toBeGreaterThan(0.3);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]?.score ?? 0);
  });
});
