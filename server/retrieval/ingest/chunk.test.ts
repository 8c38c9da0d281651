import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRIEVAL_CONFIG } from '../../contracts/retrieval';
import { chunkDocument } from './chunk';
import { splitCharacters, splitTokens, countTokens } from './split-text';

const words = (n: number, prefix = 'w') => Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(' ');

describe('strategy A, character splitter', () => {
  it('keeps every chunk within the size and shares at most the overlap with the previous chunk', () => {
    const text = words(400);
    const chunks = splitCharacters(text, 200, 40);
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(200);
    for (let i = 1; i < chunks.length; i += 1) {
      const prevWords = chunks[i - 1]!.split(' ');
      const firstWord = chunks[i]!.split(' ')[0]!;
      const at = prevWords.lastIndexOf(firstWord);
      expect(at, `chunk ${i} starts inside the previous one`).toBeGreaterThan(0);
      const shared = prevWords.slice(at).join(' ');
      expect(shared.length).toBeLessThanOrEqual(40);
      expect(chunks[i]!.startsWith(shared)).toBe(true);
    }
    // Nothing is lost: every word appears in some chunk.
    const seen = new Set(chunks.flatMap((c) => c.split(' ')));
    for (const w of text.split(' ')) expect(seen.has(w)).toBe(true);
  });

  it('cuts at paragraph boundaries before sentence or word boundaries', () => {
    const text = `${'alpha '.repeat(20).trim()}\n\n${'beta '.repeat(20).trim()}`;
    const chunks = splitCharacters(text, 130, 0);
    expect(chunks).toEqual(['alpha '.repeat(20).trim(), 'beta '.repeat(20).trim()]);
  });

  it('with no overlap, chunks concatenate back to the text', () => {
    const text = words(300);
    expect(splitCharacters(text, 100, 0).join(' ')).toBe(text);
  });

  it('cuts a long run without any separator (a base64 blob, minified data) into chunks of the size', () => {
    const run = 'QUJD'.repeat(100_000);
    const chunks = splitCharacters(run, 1000, 0);
    expect(chunks.every((c) => c.length <= 1000)).toBe(true);
    expect(chunks.join('')).toBe(run);
  });
});

describe('strategy A, token splitter', () => {
  it('makes windows of exactly CHUNK_SIZE tokens sharing CHUNK_OVERLAP tokens', async () => {
    const text = words(500, 'token');
    const chunks = await splitTokens(text, 50, 10);
    for (const c of chunks.slice(0, -1)) expect(await countTokens(c)).toBe(50);
    // The end of one window is the start of the next.
    const tail = chunks[0]!.slice(-20);
    expect(chunks[1]!.includes(tail.trim().split(' ').pop()!)).toBe(true);
    expect(chunks.length).toBe(Math.ceil((((await countTokens(text)) - 50) / 40) + 1));
  });
});

describe('strategy E, parent/child', () => {
  it('indexes small children and returns their parent as context', async () => {
    const cfg = { ...DEFAULT_RETRIEVAL_CONFIG, CHUNKING_STRATEGY: 'E' as const, PARENT_CHUNK_SIZE: 300, PARENT_CHUNK_OVERLAP: 0, CHILD_CHUNK_SIZE: 80, CHILD_CHUNK_OVERLAP: 10 };
    const chunks = await chunkDocument({ text: words(200) }, cfg);
    const parents = new Set(chunks.map((c) => c.context));
    expect(parents.size).toBeGreaterThan(1);
    for (const c of chunks) {
      expect(c.text.length).toBeLessThanOrEqual(80);
      expect(c.context!.length).toBeLessThanOrEqual(300);
      expect(c.context).toContain(c.text);
      expect(typeof c.meta.parent).toBe('number');
    }
  });
});

describe('strategy H, HTML-aware', () => {
  const cfg = { ...DEFAULT_RETRIEVAL_CONFIG, CHUNKING_STRATEGY: 'H' as const, HTML_CHUNK_SIZE: 120, HTML_MIN_CHUNK_SIZE: 30, HTML_CHUNK_OVERLAP: 0, HTML_CONTEXT_WINDOW: 100 };

  it('starts a chunk at each heading and keeps the heading trail as context', async () => {
    const html = '<h1>Guide</h1><h2>Install</h2><p>Run the installer and accept the licence terms.</p><h2>Use</h2><p>Open the app from the start menu every morning.</p>';
    const chunks = await chunkDocument({ text: '', html }, cfg);
    expect(chunks.map((c) => c.text)).toEqual([
      'Guide > Install\nRun the installer and accept the licence terms.',
      'Guide > Use\nOpen the app from the start menu every morning.',
    ]);
    expect(chunks[1]!.meta.headings).toEqual(['Guide', 'Use']);
  });

  it('merges sections shorter than the minimum and splits blocks longer than the maximum', async () => {
    const html = `<h1>Top</h1><h2>A</h2><p>tiny</p><h2>B</h2><p>short note about birds</p><p>${words(60)}</p>`;
    const chunks = await chunkDocument({ text: '', html }, cfg);
    // The small section A shares a chunk with B, under the headings they have in common.
    expect(chunks[0]!.text).toBe('Top\ntiny\n\nshort note about birds');
    for (const c of chunks) expect(c.text.replace(/^.*\n/, '').length).toBeLessThanOrEqual(120);
    expect(chunks.length).toBeGreaterThan(2);
  });

  it('uses Markdown headings when the source is Markdown', async () => {
    const chunks = await chunkDocument({ text: '# Pets\n\n## Cats\n\nCats purr loudly when they are content and warm.\n\n## Dogs\n\nDogs bark at the postman every single day.', markdown: true }, cfg);
    expect(chunks.map((c) => c.text.split('\n')[0])).toEqual(['Pets > Cats', 'Pets > Dogs']);
  });

  it('cuts the heading trail to the context window, keeping the nearest headings', async () => {
    const html = '<h1>A very long top level heading</h1><h2>Second level</h2><h3>Third</h3><p>Body text that is long enough to stand alone here.</p>';
    const chunks = await chunkDocument({ text: '', html }, { ...cfg, HTML_CONTEXT_WINDOW: 20 });
    const trail = chunks[0]!.text.split('\n')[0]!;
    expect(trail.length).toBeLessThanOrEqual(20);
    expect(trail.endsWith('Third')).toBe(true);
  });
});
