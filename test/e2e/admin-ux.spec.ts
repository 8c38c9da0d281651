import type { Browser, Page } from '@playwright/test';
import type { TestUser } from '../helpers/builders';
import type { TestServer } from '../helpers/server';
import { expect, signIn, snap, test } from './fixtures';

/** Makes the admin's interface German (their UI settings), as choosing Deutsch in Settings does. */
async function germanFor(server: TestServer, user: TestUser): Promise<void> {
  expect((await server.as(user.token).post('/api/v1/users/user/settings/update', { language: 'de' })).status).toBe(200);
}

/** Signs in through the form (in the browser's English) to an account whose interface is German. */
async function signInGerman(page: Page, user: TestUser): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Neuer Chat' })).toBeVisible();
}

/** A fresh signed-out browser (its own cookies) in a language. */
async function visitor(browser: Browser, server: TestServer, locale: string) {
  const context = await browser.newContext({ baseURL: server.url, locale });
  return { context, page: await context.newPage() };
}

test('adding a user with a 3-character password is explained before anything is sent; 8 characters are accepted', async ({ page, server, admin }) => {
  await signIn(page, admin.email, admin.password);
  await page.goto('/admin/users');
  await page.getByRole('button', { name: 'Add user' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('At least 8 characters.')).toBeVisible();
  await dialog.getByLabel('Name').fill('Shorty');
  await dialog.getByLabel('Email').fill('shorty@example.com');
  await dialog.getByLabel('Password').fill('abc');
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog.getByRole('alert').filter({ hasText: 'Use at least 8 characters.' })).toBeVisible();
  await snap(page, 'admin-add-user-short-password');
  expect((await server.as(admin.token).get('/api/v1/users/?query=shorty')).body.count).toBe(0);
  await dialog.getByLabel('Password').fill('abcdefgh');
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(page.getByTestId('user-row-shorty@example.com')).toBeVisible();
});

test('Deutsch: sign-up names the password minimum and refuses a shorter one', async ({ browser, server, admin }) => {
  void admin;
  const { context, page } = await visitor(browser, server, 'de-DE');
  try {
    await page.goto('/signup');
    await expect(page.getByRole('heading', { name: 'Konto anlegen' })).toBeVisible();
    await expect(page.getByText('Mindestens 8 Zeichen.')).toBeVisible();
    await page.getByLabel('Name').fill('Kurt');
    await page.getByLabel('E-Mail').fill('kurt@example.com');
    await page.getByLabel('Passwort').fill('kurz');
    await page.getByRole('button', { name: 'Konto anlegen' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Verwenden Sie mindestens 8 Zeichen.' })).toBeVisible();
    await snap(page, 'i18n-de-signup-short-password');
    expect((await server.as(admin.token).get('/api/v1/users/?query=kurt')).body.count).toBe(0);
  } finally {
    await context.close();
  }
});

test('the “Saved” message never covers the Save button, even with Save at the bottom of the window', async ({ page, admin }) => {
  await page.setViewportSize({ width: 1280, height: 560 });
  await signIn(page, admin.email, admin.password);
  await page.goto('/admin/auth');
  await page.getByRole('switch', { name: 'Allow new sign-ups' }).uncheck();
  const save = page.getByRole('button', { name: 'Save', exact: true });
  await save.evaluate((el: { scrollIntoView(options: object): void }) => el.scrollIntoView({ block: 'end' }));
  await save.click();
  const toast = page.getByRole('status').filter({ hasText: 'Saved' });
  await expect(toast).toBeVisible();
  await snap(page, 'admin-saved-toast');
  const a = (await save.boundingBox())!;
  const b = (await toast.locator('.toast').boundingBox())!;
  const overlaps = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  expect(overlaps, `toast ${JSON.stringify(b)} over Save ${JSON.stringify(a)}`).toBe(false);
  // And it takes no click: what sits under a message stays pressable.
  expect(await toast.evaluate((el: any) => el.ownerDocument.defaultView.getComputedStyle(el).pointerEvents)).toBe('none');
});

test('an unknown admin address shows a not-found page with a way back, in English and German', async ({ page, server, admin }) => {
  await signIn(page, admin.email, admin.password);
  await page.goto('/admin/no-such-area');
  await expect(page.getByTestId('not-found')).toBeVisible();
  await expect(page.getByText('This page does not exist.')).toBeVisible();
  await snap(page, 'admin-not-found');
  await page.getByTestId('not-found').getByRole('link', { name: 'Admin settings' }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);

  await germanFor(server, admin);
  await page.goto('/admin/nichts-hier');
  await expect(page.getByText('Diese Seite gibt es nicht.')).toBeVisible();
  await expect(page.getByTestId('not-found').getByRole('link', { name: 'Verwaltung' })).toBeVisible();
});

test('Deutsch: a new sign-up appears for the admin at once, as a badge and a notice that lists it, and leaves when approved', async ({ page, server, admin }) => {
  await germanFor(server, admin);
  await signInGerman(page, admin);
  await page.goto('/admin/users');
  await expect(page.getByTestId('pending-signups-badge')).toHaveCount(0);
  await expect(page.getByTestId('pending-signups-notice')).toHaveCount(0);

  const signup = await server.anon.post('/auths/signup', { name: 'Grace Hopper', email: 'grace@example.com', password: 'grace-password' });
  expect(signup.body.role).toBe('pending');
  // No reload: the service tells the admin's page.
  await expect(page.getByTestId('pending-signups-badge')).toHaveText(/1/);
  const notice = page.getByTestId('pending-signups-notice');
  await expect(notice).toContainText('1 Person hat sich registriert und wartet auf Ihre Freigabe.');
  await expect(page.getByRole('link', { name: /Benutzer.*1 Registrierung wartet auf Freigabe/ })).toBeVisible();
  await snap(page, 'i18n-de-admin-pending-signups');
  await notice.getByRole('button', { name: 'Anzeigen' }).click();
  await expect(page.locator('[data-testid^="user-row-"]')).toHaveCount(1);
  await page.getByTestId('user-row-grace@example.com').getByRole('button', { name: 'Freigeben' }).click();
  await expect(page.getByTestId('pending-signups-badge')).toHaveCount(0);
  await expect(page.getByText('1 Person hat sich registriert', { exact: false })).toHaveCount(0);
});

test('a shared link opened while signed out is where the person lands after signing up and being approved, and after signing in', async ({ browser, server, admin }) => {
  const api = server.as(admin.token);
  const chatId = (await api.post('/api/v1/chats/new', { title: 'Quarterly numbers' })).body.id as string;
  await api.post(`/api/v1/chats/${chatId}/messages`, { role: 'user', content: 'How did the quarter go?' });
  await api.post(`/api/v1/chats/${chatId}/messages`, { role: 'assistant', content: 'Revenue grew by 12 percent.' });
  const shareId = (await api.post(`/api/v1/chats/${chatId}/share`, {})).body.share_id as string;

  const { context, page } = await visitor(browser, server, 'en-US');
  try {
    await page.goto(`/s/${shareId}`);
    await expect(page.getByRole('heading', { name: 'Sign in to Parley' })).toBeVisible();
    await page.getByRole('link', { name: 'Create account' }).click();
    await page.getByLabel('Name').fill('Grace Hopper');
    await page.getByLabel('Email').fill('grace@example.com');
    await page.getByLabel('Password').fill('grace-password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('heading', { name: 'Waiting for approval' })).toBeVisible();
    const grace = (await api.get('/api/v1/users/?query=grace')).body.users[0];
    await api.post(`/api/v1/users/${grace.id}/update`, { role: 'user' });
    // The waiting page notices the approval by itself and opens the shared chat.
    await expect(page.getByText('Revenue grew by 12 percent.')).toBeVisible({ timeout: 15_000 });
    await expect(page).toHaveURL(new RegExp(`/s/${shareId}$`));
    await snap(page, 'share-after-signup');

    // Signed out and back in from the same link: the shared chat again, not the home page.
    await context.clearCookies();
    await page.evaluate(() => (globalThis as any).localStorage.clear());
    await page.goto(`/s/${shareId}`);
    await page.getByLabel('Email').fill('grace@example.com');
    await page.getByLabel('Password').fill('grace-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Revenue grew by 12 percent.')).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/s/${shareId}$`));
  } finally {
    await context.close();
  }
});
