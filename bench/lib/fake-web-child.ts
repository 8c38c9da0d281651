/**
 * A loopback corner of the web for `bench:web`, in its own process so its work never shows on
 * the measured service's event loop: a SearXNG-shaped engine (`/search?q=…&format=json`) and
 * article pages on 127.0.0.2 (an address the bench allows, as an office allows its intranet).
 * `q=pages` answers /page/1..3 (≈100 KB articles); `q=big` answers /big/1..10 (≈1 MB each).
 * Every answer waits FAKE_WEB_DELAY_MS (engine) or FAKE_PAGE_DELAY_MS (pages) first: the network.
 * Prints `fake-web listening on <origin>`.
 */
import { sendJson, startFakeWeb } from '../../test/fixtures/fake-web';

const engineDelay = Number(process.env.FAKE_WEB_DELAY_MS ?? 20);
const pageDelay = Number(process.env.FAKE_PAGE_DELAY_MS ?? 50);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const WORDS = 'harbour tide ferry pier lighthouse keeper storm reef island council budget timetable weather north south crossing vessel cargo season summer winter museum visitors opening hours'.split(' ');

/** An article page of about `bytes`: menus, a long article of paragraphs, a footer. */
function article(title: string, bytes: number, seed: number): string {
  const paragraphs: string[] = [];
  let size = 0;
  let n = seed;
  while (size < bytes) {
    const words: string[] = [];
    for (let i = 0; i < 60; i += 1) {
      n = (n * 1103515245 + 12345) % 2147483648;
      words.push(WORDS[n % WORDS.length]!);
    }
    const p = `<p>${words.join(' ')}. High tide at Gull Bay comes at 06:40 on day ${paragraphs.length}.</p>`;
    paragraphs.push(p);
    size += p.length;
  }
  return `<!doctype html><html><head><title>${title}</title><style>body{font:16px serif}</style><script>var x = 1;</script></head><body><nav><a href="/">Home</a> <a href="/a">About</a></nav><main><article><h1>${title}</h1>${paragraphs.join('\n')}</article></main><footer>Copyright</footer></body></html>`;
}

const web = await startFakeWeb({ host: '127.0.0.2' });
const pages = Array.from({ length: 3 }, (_, i) => article(`Page ${i + 1}`, 100_000, i + 1));
const big = Array.from({ length: 10 }, (_, i) => article(`Big page ${i + 1}`, 1_000_000, i + 11));
web.route('GET', '/health', (_req, res) => sendJson(res, 200, { status: true }));
web.route('GET', '/search', async (req, res) => {
  await sleep(engineDelay);
  const list = req.query.get('q')?.includes('big') ? big.map((_, i) => `/big/${i + 1}`) : pages.map((_, i) => `/page/${i + 1}`);
  sendJson(res, 200, { results: list.map((path, i) => ({ url: web.url(path), title: `Result ${i + 1}`, content: 'A page about Gull Bay tides', score: 10 - i })) });
});
for (const [i, html] of pages.entries()) web.route('GET', `/page/${i + 1}`, async (_req, res) => {
  await sleep(pageDelay);
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': String(Buffer.byteLength(html)) });
  res.end(html);
});
for (const [i, html] of big.entries()) web.route('GET', `/big/${i + 1}`, async (_req, res) => {
  await sleep(pageDelay);
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': String(Buffer.byteLength(html)) });
  res.end(html);
});
console.log(`fake-web listening on ${web.origin}`);
process.on('SIGTERM', () => {
  void web.close().then(() => process.exit(0));
});
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) void web.close().finally(() => process.exit(0));
}, 500);
