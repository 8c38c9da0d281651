import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeWeb, type FakeWeb } from '../../../test/fixtures/fake-web';
import { WebFetchError } from './fetch-errors';
import { createPageFetcher } from './page-fetcher';
import { tableResolve } from './resolver';

const HTML = '<!doctype html><html><head><title>Hello</title></head><body><p>Readable words.</p></body></html>';

/** The error a fetch fails with. */
async function failure(promise: Promise<unknown>): Promise<WebFetchError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof WebFetchError) return error;
    throw error;
  }
  throw new Error('the fetch succeeded');
}

describe('page fetcher (SSRF-safe)', () => {
  let local: FakeWeb; // 127.0.0.1: this machine, never reachable
  let intranet: FakeWeb; // 127.0.0.2: plays an intranet host the admin may allow
  let networks: string[] = [];
  const fetcher = () =>
    createPageFetcher({
      allowedNetworks: () => networks,
      gate: () => undefined,
      resolve: tableResolve({ 'wiki.example': '127.0.0.2', 'evil.example': ['127.0.0.1'], 'meta.example': '169.254.169.254' }),
      limits: { timeoutMs: 1500 },
    });

  beforeAll(async () => {
    local = await startFakeWeb({ host: '127.0.0.1' });
    intranet = await startFakeWeb({ host: '127.0.0.2' });
    local.page('/secret', { type: 'text/plain', body: 'the admin password' });
    intranet.page('/article', { type: 'text/html; charset=utf-8', body: HTML });
    intranet.page('/zipped', { type: 'text/html', body: HTML, gzip: true });
    intranet.redirect('/to-local', local.url('/secret'));
    intranet.redirect('/to-metadata', 'http://169.254.169.254/latest/meta-data/');
    intranet.redirect('/loop', '/loop');
    intranet.page('/slow', { type: 'text/html', body: HTML, trickleMs: 100 });
    intranet.page('/huge', { type: 'text/html', streamBytes: 50 * 1024 * 1024 });
    intranet.page('/huge-declared', { type: 'text/html', body: Buffer.alloc(6 * 1024 * 1024, 'a') });
    intranet.page('/binary', { type: 'application/octet-stream', body: Buffer.from([0, 1, 2, 3, 0, 255]) });
    intranet.page('/image', { type: 'image/png', body: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]) });
    intranet.page('/disguised', { type: 'text/html', body: Buffer.concat([Buffer.from('<html>'), Buffer.alloc(64, 0)]) });
  });
  afterAll(async () => {
    await local.close();
    await intranet.close();
  });

  it('refuses a loopback address, a private one and the metadata address', async () => {
    networks = [];
    const f = fetcher();
    expect((await failure(f.fetch(local.url('/secret')))).code).toBe('BLOCKED_ADDRESS');
    expect((await failure(f.fetch(intranet.url('/article')))).code).toBe('BLOCKED_ADDRESS');
    expect((await failure(f.fetch(`http://[::ffff:127.0.0.1]:${local.port}/secret`))).code).toBe('BLOCKED_ADDRESS');
    expect((await failure(f.fetch('http://meta.example/latest/meta-data/'))).code).toBe('BLOCKED_ADDRESS');
    expect(local.connections).toBe(0);
    expect(intranet.connections).toBe(0);
  });

  it('refuses a name that resolves to a private address, without connecting', async () => {
    networks = [];
    const error = await failure(fetcher().fetch(`http://evil.example:${local.port}/secret`));
    expect(error.code).toBe('BLOCKED_ADDRESS');
    expect(error.message).toMatch(/WEB_FETCH_ALLOWED_NETWORKS/);
    expect(local.connections).toBe(0);
  });

  it('reads pages in an allowed intranet range, by address and by name', async () => {
    networks = ['127.0.0.2/32'];
    const f = fetcher();
    const page = await f.fetch(intranet.url('/article'));
    expect(page.mediaType).toBe('text/html');
    expect(page.charset).toBe('utf-8');
    expect(page.body.toString()).toContain('Readable words.');
    const named = await f.fetch(`http://wiki.example:${intranet.port}/article`);
    expect(named.url).toBe(`http://wiki.example:${intranet.port}/article`);
    expect((await f.fetch(intranet.url('/zipped'))).body.toString()).toContain('Readable words.');
    await f.close();
  });

  it('refuses a redirect to this machine even from an allowed host, and never connects there', async () => {
    networks = ['127.0.0.2/32'];
    const before = local.connections;
    expect((await failure(fetcher().fetch(intranet.url('/to-local')))).code).toBe('BLOCKED_ADDRESS');
    expect((await failure(fetcher().fetch(intranet.url('/to-metadata')))).code).toBe('BLOCKED_ADDRESS');
    expect(local.connections).toBe(before);
  });

  it('gives up after too many redirects', async () => {
    networks = ['127.0.0.2/32'];
    expect((await failure(fetcher().fetch(intranet.url('/loop')))).code).toBe('TOO_MANY_REDIRECTS');
  });

  it('stops a slow page at the time limit', async () => {
    networks = ['127.0.0.2/32'];
    const started = performance.now();
    expect((await failure(fetcher().fetch(intranet.url('/slow')))).code).toBe('TIMEOUT');
    expect(performance.now() - started).toBeLessThan(4000);
  });

  it('stops reading a 50 MB page at the size limit', async () => {
    networks = ['127.0.0.2/32'];
    const used = process.memoryUsage().rss;
    expect((await failure(fetcher().fetch(intranet.url('/huge')))).code).toBe('TOO_LARGE');
    expect((await failure(fetcher().fetch(intranet.url('/huge-declared')))).code).toBe('TOO_LARGE');
    expect(process.memoryUsage().rss - used).toBeLessThan(40 * 1024 * 1024);
  });

  it('reads only text: binary files and images are refused, whatever they claim', async () => {
    networks = ['127.0.0.2/32'];
    const f = fetcher();
    expect((await failure(f.fetch(intranet.url('/binary')))).code).toBe('NOT_TEXT');
    expect((await failure(f.fetch(intranet.url('/image')))).code).toBe('NOT_TEXT');
    expect((await failure(f.fetch(intranet.url('/disguised')))).code).toBe('NOT_TEXT');
  });

  it('reads only http(s) URLs without credentials', async () => {
    const f = fetcher();
    expect((await failure(f.fetch('file:///etc/passwd'))).code).toBe('BAD_URL');
    expect((await failure(f.fetch('ftp://example.com/x'))).code).toBe('BAD_URL');
    expect((await failure(f.fetch('http://user:pw@example.com/'))).code).toBe('BAD_URL');
    expect((await failure(f.fetch('not a url'))).code).toBe('BAD_URL');
  });

  it('asks the outbound gate before connecting', async () => {
    networks = ['127.0.0.2/32'];
    const before = intranet.connections;
    const gated = createPageFetcher({
      allowedNetworks: () => networks,
      gate: () => {
        throw new WebFetchError('OFFLINE', 'Parley is offline');
      },
    });
    expect((await failure(gated.fetch(intranet.url('/article')))).code).toBe('OFFLINE');
    expect(intranet.connections).toBe(before);
  });
});
