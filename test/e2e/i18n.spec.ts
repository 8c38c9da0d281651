import type { Page } from '@playwright/test';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import type { TestUser } from '../helpers/builders';
import type { TestServer } from '../helpers/server';
import { catalog, englishOnScreen } from './catalog-texts';
import { expect, signIn, snap, test } from './fixtures';

/**
 * English UI texts that a German screen must not show: every English catalog text without
 * placeholders that German words differently (texts both languages share, such as "Chat" or
 * "OK", prove nothing).
 */
function englishOnly(): string[] {
  const en = catalog('en');
  const de = catalog('de');
  return Object.entries(en)
    .filter(([key, text]) => !text.includes('{{') && de[key] !== text && /\p{L}{3}/u.test(text))
    .map(([, text]) => text);
}

let openai: FakeOpenAI;
test.beforeEach(async () => {
  openai = await startFakeOpenAI({ models: ['fake-gpt'] });
});
test.afterEach(async () => {
  await openai.close();
});

/** Connects the fake provider and makes a shared chat with a question and an answer; returns their ids. */
async function sharedChat(server: TestServer, admin: TestUser): Promise<{ chatId: string; shareId: string }> {
  const api = server.as(admin.token);
  await api.post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
  const chatId = (await api.post('/api/v1/chats/new', { title: 'Quartalszahlen' })).body.id as string;
  await api.post(`/api/v1/chats/${chatId}/messages`, { role: 'user', content: 'Wie lief das Quartal?' });
  await api.post(`/api/v1/chats/${chatId}/messages`, { role: 'assistant', content: 'Der Umsatz ist um 12 % gestiegen.' });
  const shareId = (await api.post(`/api/v1/chats/${chatId}/share`, {})).body.share_id as string;
  return { chatId, shareId };
}

test('Deutsch chosen in Settings stays after a reload and follows the person to another browser, on every screen', async ({ page, browser, server, admin }) => {
  test.setTimeout(180_000);
  const { chatId, shareId } = await sharedChat(server, admin);
  await signIn(page, admin.email, admin.password);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  await page.goto('/account');
  await page.getByTestId('language-picker').selectOption('de');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('heading', { name: 'Oberfläche' })).toBeVisible();
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('heading', { name: 'Oberfläche' })).toBeVisible();

  // Another browser (English by its own language): after signing in, the account's choice applies.
  const other = await browser.newContext({ baseURL: server.url, locale: 'en-US' });
  try {
    const theirs = await other.newPage();
    await theirs.goto('/');
    await theirs.getByLabel('Email').fill(admin.email);
    await theirs.getByLabel('Password').fill(admin.password);
    await theirs.getByRole('button', { name: 'Sign in' }).click();
    await expect(theirs.locator('html')).toHaveAttribute('lang', 'de');
    await expect(theirs.getByRole('button', { name: /^Modell:/ })).toBeVisible();
    const english = englishOnly();
    const screens: Array<[string, (p: Page) => Promise<void>]> = [
      ['/', (p) => expect(p.getByRole('button', { name: 'Neuer Chat' })).toBeVisible()],
      [`/c/${chatId}`, (p) => expect(p.getByRole('button', { name: 'Nachricht kopieren' }).first()).toBeVisible()],
      ['/workspace/models', (p) => expect(p.getByRole('link', { name: 'Neues Modell' })).toBeVisible()],
      ['/workspace/knowledge', (p) => expect(p.getByRole('button', { name: 'Neue Wissensdatenbank' })).toBeVisible()],
      ['/workspace/tools', (p) => expect(p.getByRole('link', { name: 'Neues Python-Tool' })).toBeVisible()],
      ['/workspace/prompts', (p) => expect(p.getByRole('button', { name: 'Neuer Prompt' })).toBeVisible()],
      ['/admin/users', (p) => expect(p.getByRole('button', { name: 'Benutzer hinzufügen' })).toBeVisible()],
      ['/admin/groups', (p) => expect(p.getByRole('button', { name: 'Neue Gruppe' })).toBeVisible()],
      ['/admin/permissions', (p) => expect(p.getByText('Was alle Benutzer dürfen', { exact: false })).toBeVisible()],
      ['/admin/auth', (p) => expect(p.getByText('Neue Registrierungen erlauben')).toBeVisible()],
      ['/admin/connections', (p) => expect(p.getByRole('heading', { name: 'OpenAI-kompatible APIs' })).toBeVisible()],
      ['/admin/local-models', (p) => expect(p.getByRole('heading', { name: 'Bibliothek' })).toBeVisible()],
      ['/admin/tool-servers', (p) => expect(p.getByRole('button', { name: 'Tool-Server hinzufügen' })).toBeVisible()],
      ['/admin/retrieval', (p) => expect(p.getByText('Hybride Suche (BM25 + Vektoren)')).toBeVisible()],
      ['/admin/tasks', (p) => expect(p.getByLabel('Modell für Aufgaben', { exact: true })).toBeVisible()],
      ['/admin/lan', (p) => expect(p.getByRole('switch', { name: 'Im lokalen Netzwerk teilen' })).toBeVisible()],
      ['/admin/api-usage', (p) => expect(p.getByText('Keine /v1-Anfragen in diesem Zeitraum.')).toBeVisible()],
      ['/account', (p) => expect(p.getByRole('heading', { name: 'Passwort', exact: true })).toBeVisible()],
      ['/api-reference', (p) => expect(p.getByRole('heading', { name: 'API-Referenz' })).toBeVisible()],
      ['/setup', (p) => expect(p.getByRole('heading', { name: 'Parley einrichten' })).toBeVisible()],
      [`/s/${shareId}`, (p) => expect(p.getByText('Geteilt von Ada Admin')).toBeVisible()],
    ];
    for (const [route, ready] of screens) {
      await theirs.goto(route);
      await expect(theirs.locator('html')).toHaveAttribute('lang', 'de');
      await ready(theirs);
      await expect.poll(() => englishOnScreen(theirs, english), { message: `English left on ${route}` }).toEqual([]);
    }
    await theirs.goto(`/c/${chatId}`);
    await expect(theirs.getByText('Der Umsatz ist um 12 % gestiegen.')).toBeVisible();
    await snap(theirs, 'i18n-de-chat');
    await theirs.goto('/admin/users');
    await expect(theirs.getByText('Zuletzt aktiv')).toBeVisible();
    await snap(theirs, 'i18n-de-admin-users');
  } finally {
    await other.close();
  }
});

test('the sign-in page guesses the browser’s language, and its menu switches it before signing in', async ({ browser, server, admin }) => {
  const context = await browser.newContext({ baseURL: server.url, locale: 'de-DE' });
  try {
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.getByRole('heading', { name: 'Bei Parley anmelden' })).toBeVisible();
    await snap(page, 'i18n-de-signin');
    await page.getByLabel('Sprache').selectOption('en');
    await expect(page.getByRole('heading', { name: 'Sign in to Parley' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Sign in to Parley' })).toBeVisible();
    // The choice made here becomes the account's when the account has none yet.
    await page.getByLabel('Sprache').or(page.getByLabel('Language')).selectOption('de');
    await page.getByLabel('E-Mail').fill(admin.email);
    await page.getByLabel('Passwort').fill(admin.password);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await expect(page.getByRole('button', { name: 'Neuer Chat' })).toBeVisible();
    await expect.poll(async () => (await server.as(admin.token).get('/api/v1/users/user/settings')).body?.language).toBe('de');
  } finally {
    await context.close();
  }
});

test('switching the language fetches only that language’s catalogs; English needs none on the chat screen', async ({ page, server, admin }) => {
  await sharedChat(server, admin);
  const catalogs: string[] = [];
  page.on('request', (request) => {
    const name = /\/assets\/(locale-[^/]+)\.js$/.exec(new URL(request.url()).pathname)?.[1];
    if (name) catalogs.push(name);
  });
  await signIn(page, admin.email, admin.password);
  await expect(page.getByRole('button', { name: 'New chat' })).toBeVisible();
  expect(catalogs).toEqual([]);

  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'Interface' })).toBeVisible();
  expect(catalogs.map((c) => c.replace(/-[\w-]{8}$/, ''))).toEqual(['locale-en-account']);

  catalogs.length = 0;
  await page.getByTestId('language-picker').selectOption('de');
  await expect(page.getByRole('heading', { name: 'Oberfläche' })).toBeVisible();
  const fetched = catalogs.map((c) => c.replace(/-[\w-]{8}$/, '')).sort();
  expect(fetched).toEqual(['locale-de-account', 'locale-de-auth', 'locale-de-chat', 'locale-de-common', 'locale-de-errors', 'locale-de-library']);

  catalogs.length = 0;
  await page.getByRole('link', { name: 'Verwaltung' }).click();
  await expect(page.getByRole('button', { name: 'Benutzer hinzufügen' })).toBeVisible();
  expect(catalogs.map((c) => c.replace(/-[\w-]{8}$/, ''))).toEqual(['locale-de-admin']);
});
