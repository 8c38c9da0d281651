import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { sendJson, startFakeWeb, type FakeWeb } from '../fixtures/fake-web';
import { expect, sendMessage, signIn, snap, test } from './fixtures';

let openai: FakeOpenAI;
let searxng: FakeWeb;
let pages: FakeWeb;

const tides = '<!doctype html><html><head><title>Tides of Gull Bay</title></head><body><nav>Home | Shop</nav><article><h1>Tides of Gull Bay</h1><p>High tide at Gull Bay comes at 06:40 on Saturday, and the harbour master closes the slipway an hour before it.</p></article></body></html>';
const ferry = '<!doctype html><html><head><title>Ferry times</title></head><body><article><h1>Ferry times</h1><p>The Gull Bay ferry leaves every 40 minutes from the north pier.</p></article></body></html>';

test.beforeEach(async () => {
  openai = await startFakeOpenAI({ models: ['fake-gpt'] });
  searxng = await startFakeWeb({ host: '127.0.0.1' });
  // The pages live on 127.0.0.2: an "intranet" address the admin allows below.
  pages = await startFakeWeb({ host: '127.0.0.2' });
  pages.page('/tides', { type: 'text/html', body: tides });
  pages.page('/ferry', { type: 'text/html', body: ferry });
  searxng.route('GET', '/search', (_req, res) =>
    sendJson(res, 200, {
      results: [
        { url: pages.url('/tides'), title: 'Tides of Gull Bay', content: 'Tide tables' },
        { url: pages.url('/ferry'), title: 'Ferry times', content: 'Ferry timetable' },
      ],
    }),
  );
});
test.afterEach(async () => {
  await Promise.all([openai.close(), searxng.close(), pages.close()]);
});

test('an admin turns web search on with SearXNG; the globe searches, the status shows it, and a citation opens the page and saves it to a knowledge base', async ({ page, server, admin }) => {
  const as = server.as(admin.token);
  await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
  await as.post('/api/knowledge/create', { name: 'Harbour notes', description: '' });
  await signIn(page, admin.email, admin.password);
  // Off by default: no globe.
  await expect(page.getByRole('button', { name: 'Search the web' })).toHaveCount(0);

  await page.goto('/admin/web-search');
  const panel = page.locator('section').filter({ hasText: 'Queries go to the search engine' });
  await expect(panel.getByLabel('Search engine', { exact: true })).toHaveValue('searxng');
  await expect(panel.getByText(/Recommended for an office/)).toBeVisible();
  await panel.getByRole('switch', { name: /^Web search/ }).click();
  await panel.getByLabel('SearXNG search URL').fill(searxng.url('/search'));
  await panel.getByLabel('Private networks pages may be read from').fill('127.0.0.2/32');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  await page.locator('h2', { hasText: 'Web search' }).scrollIntoViewIfNeeded();
  await snap(page, 'admin-web-search');

  await page.getByRole('button', { name: 'New chat' }).click();
  const globe = page.getByRole('button', { name: 'Search the web' });
  await expect(globe).toHaveAttribute('aria-pressed', 'false');
  await globe.click();
  await expect(globe).toHaveAttribute('aria-pressed', 'true');
  // The globe sits beside the code interpreter's toggle (on by default), which stays off.
  await expect(page.getByTestId('code-interpreter-toggle')).toHaveAttribute('aria-pressed', 'false');

  openai.reply({ text: 'High tide is at 06:40 on Saturday [1].', chunks: 8, delayMs: 150 });
  await sendMessage(page, 'When is high tide at Gull Bay on Saturday?');
  const answer = page.getByTestId('message-assistant').last();
  await expect(answer.getByRole('status')).toHaveText('Read 2 pages');
  await snap(page, 'chat-web-search-status');
  await expect(answer).toContainText('High tide is at 06:40 on Saturday');
  const sent = openai.lastChat()!.body.messages[0].content as string;
  expect(sent).toContain('06:40');
  expect(sent).not.toContain('Home | Shop');

  // The inline [1] opens the passage with its page.
  await answer.locator('[data-cite="1"]').click();
  await expect(page.getByRole('dialog').getByRole('link', { name: pages.url('/tides') })).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

  await answer.getByRole('button', { name: /Tides of Gull Bay/ }).click();
  const dialog = page.getByRole('dialog');
  const link = dialog.getByRole('link', { name: pages.url('/tides') });
  await expect(link).toHaveAttribute('href', pages.url('/tides'));
  await expect(dialog).toContainText('closes the slipway');
  await expect(dialog).not.toContainText('Relevance 0%');
  await snap(page, 'chat-web-citation');
  const [opened] = await Promise.all([page.waitForEvent('popup'), link.click()]);
  await expect(opened.locator('h1')).toHaveText('Tides of Gull Bay');
  await opened.close();

  await dialog.getByRole('button', { name: 'Save to a knowledge base' }).click();
  await dialog.getByRole('menuitem', { name: 'Harbour notes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved to Harbour notes' })).toBeVisible();
  const bases = (await as.get('/api/knowledge')).body;
  const detail = (await as.get(`/api/v1/knowledge/${bases[0].id}`)).body;
  expect(detail.files.map((f: { name?: string; filename?: string }) => f.name ?? f.filename)).toContain('Tides of Gull Bay.md');
});

test('in German: Admin → Websuche, the globe, the status and the citation speak German', async ({ page, server, admin }) => {
  const as = server.as(admin.token);
  await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
  await signIn(page, admin.email, admin.password);
  // Deutsch as the person's language: the UI follows it on the next load.
  await as.post('/api/v1/users/user/settings/update', { language: 'de' });

  await page.goto('/admin/web-search');
  const panel = page.locator('section').filter({ hasText: 'Suchanfragen gehen an die hier gewählte Suchmaschine' });
  await expect(panel.getByLabel('Suchmaschine', { exact: true })).toHaveValue('searxng');
  await expect(panel.getByText(/Für Büros empfohlen/)).toBeVisible();
  await panel.getByRole('switch', { name: /^Websuche/ }).click();
  await panel.getByLabel('SearXNG-Such-URL').fill(searxng.url('/search'));
  await panel.getByLabel('Private Netzwerke, aus denen Seiten gelesen werden dürfen').fill('127.0.0.2/32');
  await page.getByRole('button', { name: 'Speichern' }).click();
  await page.locator('h2', { hasText: 'Websuche' }).scrollIntoViewIfNeeded();
  await snap(page, 'admin-web-search-de');

  await page.getByRole('button', { name: 'Neuer Chat' }).click();
  const globe = page.getByRole('button', { name: 'Im Web suchen' });
  await globe.click();
  await expect(globe).toHaveAttribute('aria-pressed', 'true');
  openai.reply({ text: 'Hochwasser ist am Samstag um 06:40 [1].', chunks: 8, delayMs: 150 });
  const box = page.getByRole('textbox', { name: 'Nachricht senden' });
  await box.fill('Wann ist am Samstag Hochwasser in Gull Bay?');
  await box.press('Enter');
  const answer = page.getByTestId('message-assistant').last();
  await expect(answer.getByRole('status')).toHaveText('2 Seiten gelesen');
  await snap(page, 'chat-web-search-status-de');
  // The citation opened while the answer still streams stays open when the answer ends and the
  // page re-reads the saved chat (the answer takes its saved id then).
  const reread = page.waitForResponse((r) => /\/api\/v1\/chats\/[^/]+$/.test(new URL(r.url()).pathname) && r.request().method() === 'GET');
  await answer.getByRole('button', { name: /Tides of Gull Bay/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('link', { name: pages.url('/tides') })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Antwort stoppen' })).toHaveCount(0);
  await reread;
  await expect(answer).toContainText('Hochwasser ist am Samstag um 06:40');
  await expect(dialog.getByRole('link', { name: pages.url('/tides') })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'In einer Wissensdatenbank speichern' })).toBeVisible();
  await snap(page, 'chat-web-citation-de');
});
