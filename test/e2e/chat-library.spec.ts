import { readFileSync } from 'node:fs';
import { buildUser } from '../helpers/builders';
import type { TestServer } from '../helpers/server';
import type { TestUser } from '../helpers/builders';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { expect, signIn, snap, test } from './fixtures';

let openai: FakeOpenAI;
test.beforeEach(async () => {
  openai = await startFakeOpenAI({ models: ['fake-gpt'] });
});
test.afterEach(async () => {
  await openai.close();
});

async function connect(server: TestServer, admin: TestUser): Promise<void> {
  await server.as(admin.token).post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
}

/** A chat of `user` with alternating user/assistant messages, made through the API. */
async function chatWith(server: TestServer, user: TestUser, title: string, ...contents: string[]): Promise<string> {
  const api = server.as(user.token);
  const id = (await api.post('/api/v1/chats/new', { title })).body.id as string;
  for (const [i, content] of contents.entries()) await api.post(`/api/v1/chats/${id}/messages`, { role: i % 2 === 0 ? 'user' : 'assistant', content });
  return id;
}

test('searching finds a word inside a message, shows the passage highlighted, and opens the chat', async ({ page, server, admin }) => {
  await connect(server, admin);
  await chatWith(server, admin, 'Garden plans', 'What should I plant in spring?', 'Try tomatoes and basil next to each other.');
  const target = await chatWith(server, admin, 'Holiday', 'Where to go in winter?', 'Lapland has reindeer sledding and northern lights.');
  await signIn(page, admin.email, admin.password);

  await page.getByLabel('Search chats').fill('reindeer');
  const hits = page.getByTestId('search-hit');
  await expect(hits).toHaveCount(1);
  await expect(hits.first()).toContainText('Holiday');
  await expect(hits.first().locator('mark')).toHaveText(/reindeer/i);
  await snap(page, 'library-search');
  await hits.first().click();
  await expect(page).toHaveURL(new RegExp(`/c/${target}$`));
  await expect(page.getByTestId('message-assistant').last()).toContainText('Lapland has reindeer sledding');
});

test('a search hit in a long chat opens the chat at the matching message and marks it for a moment, in English and German', async ({ page, browser, server, admin }) => {
  await connect(server, admin);
  const contents = Array.from({ length: 80 }, (_, i) => `Message ${i + 1}: ${i % 2 ? 'an answer about the weather, which is mild and grey today.' : 'a question about the weather this week?'}`);
  contents[11] = 'Message 12: where is the old zeppelin hangar near the lake?';
  const chat = await chatWith(server, admin, 'Weather diary', ...contents);
  const messageId = ((await server.as(admin.token).get(`/api/v1/chats/${chat}`)).body.messages as Array<{ id: string; content: string }>).find((m) => m.content.includes('zeppelin'))!.id;

  const openHit = async (p: typeof page, searchLabel: string, name: string) => {
    await p.getByLabel(searchLabel).fill('zeppelin');
    await p.getByTestId('search-hit').first().click();
    const match = p.locator('.thread-row').filter({ hasText: 'old zeppelin hangar' });
    await expect(match).toBeInViewport();
    await expect(match).toHaveAttribute('data-search-hit', '');
    await expect(p.getByText('Message 80:')).not.toBeInViewport();
    await snap(p, name);
    // The mark fades, and the address no longer names the message (a reload opens at the end as usual).
    await expect(match).not.toHaveAttribute('data-search-hit', '', { timeout: 5000 });
    await expect(p).toHaveURL(new RegExp(`/c/${chat}$`));
    await expect(match).toBeInViewport();
  };

  await signIn(page, admin.email, admin.password);
  await page.goto(`/c/${chat}`);
  await expect(page.getByText('Message 80:')).toBeInViewport();
  await openHit(page, 'Search chats', 'library-search-jump');
  expect((await server.as(admin.token).get(`/api/v1/chats/search?text=zeppelin`)).body[0].message_id).toBe(messageId);

  const context = await browser.newContext({ baseURL: server.url, locale: 'de-DE' });
  try {
    const german = await context.newPage();
    await german.goto('/');
    await german.getByLabel('E-Mail').fill(admin.email);
    await german.getByLabel('Passwort').fill(admin.password);
    await german.getByRole('button', { name: 'Anmelden' }).click();
    await expect(german.getByRole('button', { name: 'Neuer Chat' })).toBeVisible();
    await openHit(german, 'Chats durchsuchen', 'i18n-de-library-search-jump');
  } finally {
    await context.close();
  }
});

test('a search hit in an older version of an edited answer shows that version and marks it', async ({ page, server, admin }) => {
  await connect(server, admin);
  const api = server.as(admin.token);
  const chat = await chatWith(server, admin, 'Trip notes', 'Where should we stop on the way?');
  const first = (await api.post(`/api/v1/chats/${chat}/messages`, { role: 'assistant', content: 'Stop at the old zeppelin hangar.' })).body;
  await api.post(`/api/v1/chats/${chat}/messages/${first.id}`, { content: 'Stop at the lakeside bakery.' });
  await signIn(page, admin.email, admin.password);
  await page.goto(`/c/${chat}`);
  await expect(page.getByText('Stop at the lakeside bakery.')).toBeVisible();

  await page.getByLabel('Search chats').fill('zeppelin');
  await page.getByTestId('search-hit').first().click();
  const match = page.locator('.thread-row').filter({ hasText: 'old zeppelin hangar' });
  await expect(match).toBeInViewport();
  await expect(match).toHaveAttribute('data-search-hit', '');
  await expect(page.getByText('Stop at the lakeside bakery.')).toHaveCount(0);
});

test('a chat goes into a folder with the keyboard and by drag and drop', async ({ page, server, admin }) => {
  await connect(server, admin);
  const first = await chatWith(server, admin, 'Quarterly report', 'Draft the summary');
  const second = await chatWith(server, admin, 'Team offsite', 'Pick a venue');
  await signIn(page, admin.email, admin.password);

  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByRole('dialog').getByLabel('Folder name').fill('Work');
  await page.keyboard.press('Enter');
  const folder = page.getByTestId('folder').filter({ hasText: 'Work' });
  await expect(folder).toBeVisible();
  const folderId = ((await server.as(admin.token).get('/api/v1/folders/')).body as Array<{ id: string; name: string }>).find((f) => f.name === 'Work')!.id;

  // Keyboard: the chat's menu, "Move to folder…", arrows to the folder, Enter.
  await page.getByRole('button', { name: 'Actions for Quarterly report' }).click();
  await page.getByRole('menuitem', { name: 'Move to folder…' }).click();
  const dialog = page.getByRole('dialog', { name: /Move to folder: Quarterly report/ });
  await expect(dialog.getByRole('button', { name: 'No folder' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(dialog.getByRole('button', { name: 'Work' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect.poll(async () => (await server.as(admin.token).get(`/api/v1/chats/${first}`)).body.folder_id).toBe(folderId);

  // Mouse: drag the other chat onto the folder.
  await page.getByTestId('chat-row').filter({ hasText: 'Team offsite' }).dragTo(folder);
  await expect.poll(async () => (await server.as(admin.token).get(`/api/v1/chats/${second}`)).body.folder_id).toBe(folderId);
  await expect(page.getByTestId('chat-row').filter({ hasText: 'Team offsite' })).toBeVisible();
  await snap(page, 'library-folders');
});

test('a share link opens a read-only copy for a colleague signed in on another browser', async ({ page, browser, server, admin }) => {
  await connect(server, admin);
  await chatWith(server, admin, 'Launch checklist', 'What is left before launch?', 'Only the press release remains.');
  const colleague = await buildUser(server, admin, 'user', 'Grace Colleague');
  await signIn(page, admin.email, admin.password);

  await page.getByRole('button', { name: 'Actions for Launch checklist' }).click();
  await page.getByRole('menuitem', { name: 'Share' }).click();
  await page.getByRole('button', { name: 'Create link' }).click();
  const link = await page.getByTestId('share-link').inputValue();
  expect(link).toMatch(/\/s\/[\w-]+$/);

  const other = await browser.newContext({ baseURL: server.url });
  try {
    const theirs = await other.newPage();
    await signIn(theirs, colleague.email, colleague.password);
    await theirs.goto(link);
    await expect(theirs.getByText('Shared by Ada Admin')).toBeVisible();
    await expect(theirs.getByTestId('shared-message')).toHaveCount(2);
    await expect(theirs.getByText('Only the press release remains.')).toBeVisible();
    await expect(theirs.getByLabel('Send a message')).toHaveCount(0);
    await snap(theirs, 'library-shared-chat');
  } finally {
    await other.close();
  }
});

test('exporting all chats and importing the file gives the same chats back, with a report; chats already there are not duplicated', async ({ page, server, admin }) => {
  await connect(server, admin);
  const original = await chatWith(server, admin, 'Recipe ideas', 'Something with lentils?', 'A lentil soup with cumin.');
  await signIn(page, admin.email, admin.password);

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export all chats' }).click();
  const file = await (await downloading).path();
  const exported = JSON.parse(readFileSync(file, 'utf8')) as Array<{ title: string }>;
  expect(exported.map((c) => c.title)).toEqual(['Recipe ideas']);

  // The chats are still here: the report says so and nothing is doubled.
  await page.getByTestId('import-input').setInputFiles(file);
  await expect(page.getByTestId('import-summary')).toHaveText('0 imported, 1 skipped');
  await expect(page.getByTestId('import-duplicates')).toHaveText('1 chat was already in your chats, so it was not imported again');
  await snap(page, 'library-import-duplicates');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('chat-row').filter({ hasText: 'Recipe ideas' })).toHaveCount(1);

  // Once deleted, the same file brings it back.
  expect((await server.as(admin.token).delete(`/api/v1/chats/${original}`)).status).toBe(200);
  await page.reload();
  await page.getByTestId('import-input').setInputFiles(file);
  await expect(page.getByTestId('import-summary')).toHaveText('1 imported, 0 skipped');
  await expect(page.getByTestId('import-duplicates')).toHaveCount(0);
  await snap(page, 'library-import-report');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('chat-row').filter({ hasText: 'Recipe ideas' })).toHaveCount(1);
  const copy = ((await server.as(admin.token).get('/api/v1/chats/all')).body as Array<{ id: string; title: string; messages: Array<{ content: string }> }>).at(-1)!;
  expect(copy.messages.map((m) => m.content)).toEqual(['Something with lentils?', 'A lentil soup with cumin.']);
});

test('a prompt made in the workspace is typed as /command, asks for its variable and fills in the date', async ({ page, server, admin }) => {
  await connect(server, admin);
  await signIn(page, admin.email, admin.password);
  await page.goto('/workspace/prompts');
  await page.getByRole('button', { name: 'New prompt' }).click();
  const editor = page.getByRole('dialog', { name: 'New prompt' });
  await editor.getByLabel('Command').fill('/greet');
  await editor.getByLabel('Title').fill('Greeting letter');
  await editor.getByLabel('Content').fill('Write a greeting to {{recipient}} dated {{CURRENT_DATE}}.');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('prompt-card').filter({ hasText: 'Greeting letter' })).toBeVisible();
  await snap(page, 'workspace-prompts');

  await page.getByRole('button', { name: 'New chat' }).click();
  const input = page.getByLabel('Send a message');
  await input.fill('/gre');
  const menu = page.getByTestId('prompt-menu');
  await expect(menu.getByRole('option', { name: /Greeting letter/ })).toBeVisible();
  await input.press('Enter');
  const form = page.getByRole('dialog', { name: 'Fill in “Greeting letter”' });
  await form.getByLabel('recipient').fill('Grace');
  await form.getByRole('button', { name: 'Insert' }).click();
  const now = new Date();
  const today = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
  await expect(input).toHaveValue(`Write a greeting to Grace dated ${today}.`);
  await expect(input).toBeFocused();
});
