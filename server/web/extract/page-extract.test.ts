import { afterAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { makePdf } from '../../../test/fixtures/documents/build-documents';
import { createPageExtractor } from './extract-client';
import { pageText } from './page-extract';

const ARTICLE = `<!doctype html><html><head><title>Gull Island | Lighthouses</title><script>var hidden = "zebrafish";</script></head><body>
<nav><a href="/">Home</a> <a href="/about">About us</a> <a href="/shop">Shop</a></nav>
<article><h1>The Gull Island lighthouse</h1>
<p>The lighthouse on Gull Island was built in 1874 by the harbour board, after two ships were lost on the reef in one winter storm.</p>
<p>Its lamp burned whale oil until 1921 and was visible for twenty nautical miles; a keeper and two assistants lived on the island all year.</p>
<p>Today the light is automatic, and the keepers' cottage is a small museum that opens every summer weekend.</p></article>
<footer>Copyright 2024 Lighthouse Society. Cookie settings.</footer></body></html>`;

const bytes = (text: string) => new TextEncoder().encode(text);

describe('page text extraction', () => {
  it('keeps an HTML page’s article and drops menus, footers and scripts', async () => {
    const page = await pageText({ url: 'https://lights.example/gull', mediaType: 'text/html', body: bytes(ARTICLE) });
    expect(page.title).toContain('Gull Island');
    expect(page.text).toContain('built in 1874');
    expect(page.text).toContain('twenty nautical miles');
    expect(page.text).not.toContain('zebrafish');
    expect(page.text).not.toContain('Cookie settings');
    expect(page.text.split('\n').some((line) => line.startsWith('Its lamp'))).toBe(true);
  });

  it('honours the page’s charset', async () => {
    const latin1 = Buffer.from('<html><head><meta charset="iso-8859-1"><title>Caf\xe9</title></head><body><p>Cr\xe8me br\xfbl\xe9e</p></body></html>', 'latin1');
    const page = await pageText({ url: 'https://x.example/', mediaType: 'text/html', body: latin1 });
    expect(page.text).toContain('Crème brûlée');
    const declared = await pageText({ url: 'https://x.example/', mediaType: 'text/plain', charset: 'iso-8859-1', body: Buffer.from('Gr\xfc\xdfe', 'latin1') });
    expect(declared.text).toBe('Grüße');
  });

  it('reads Markdown, JSON and PDF', async () => {
    const md = await pageText({ url: 'https://x.example/readme.md', mediaType: 'text/markdown', body: bytes('# Setup guide\n\nRun the installer.') });
    expect(md).toMatchObject({ title: 'Setup guide', text: '# Setup guide\n\nRun the installer.' });
    const json = await pageText({ url: 'https://api.example/data', mediaType: 'application/json', body: bytes('{"city":"Rotterdam","port":true}') });
    expect(json.text).toContain('"city": "Rotterdam"');
    const pdf = await pageText({ url: 'https://x.example/docs/annual%20report.pdf', mediaType: 'application/pdf', body: new Uint8Array(await makePdf(['The harbour handled 14 million containers.'])) });
    expect(pdf.title).toBe('annual report.pdf');
    expect(pdf.text).toContain('14 million containers');
  });

  it('treats an HTML document sent as plain text as HTML', async () => {
    const page = await pageText({ url: 'https://x.example/', mediaType: 'text/plain', body: bytes(ARTICLE) });
    expect(page.text).toContain('built in 1874');
    expect(page.text).not.toContain('<p>');
  });

  describe('on the worker thread', () => {
    const extractor = createPageExtractor(pino({ level: 'silent' }));
    afterAll(() => extractor.stop());

    it('extracts a page there, with the same result', async () => {
      const page = await extractor.page({ url: 'https://lights.example/gull', mediaType: 'text/html', body: Buffer.from(ARTICLE) });
      expect(page.text).toContain('built in 1874');
      expect(page.text).not.toContain('zebrafish');
    });
  });
});
