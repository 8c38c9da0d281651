import type { Page } from '@playwright/test';
import type { TestUser } from '../helpers/builders';
import type { TestServer } from '../helpers/server';
import { expect, signIn, snap, test } from './fixtures';

const TITLES = ['How many vacation days do I have left this year', 'How many volunteers signed up for Saturday', 'How many visitors came to the booth'];

/** Three chats whose titles start alike, each with three tags, as the tags task leaves them. */
async function taggedChats(server: TestServer, admin: TestUser): Promise<string[]> {
  const api = server.as(admin.token);
  const ids: string[] = [];
  for (const title of TITLES) {
    const id = (await api.post('/api/v1/chats/new', { title })).body.id as string;
    for (const name of ['work', 'planning', 'questions']) expect((await api.post(`/api/v1/chats/${id}/tags`, { name })).status).toBe(200);
    ids.push(id);
  }
  return ids;
}

/** The sidebar rows of the chats, whose titles fill the row: no tag chips beside them, no tab stops for tags. */
async function expectTitlesFirst(page: Page): Promise<void> {
  const rows = page.getByTestId('chat-row');
  await expect(rows).toHaveCount(3);
  for (const row of await rows.all()) {
    const link = row.getByRole('link');
    const title = (await link.getAttribute('title'))!;
    const rowBox = (await row.boundingBox())!;
    const linkBox = (await link.boundingBox())!;
    // The title takes the row, less the marker and the menu button.
    expect(linkBox.width, title).toBeGreaterThan(rowBox.width - 60);
    // At least 24 characters of the title are on screen, not ~10 and an ellipsis.
    const shown = await link.evaluate((el: any) => el.clientWidth / (el.scrollWidth / el.textContent.length));
    expect(shown, title).toBeGreaterThan(24);
    // Tags are one marker, never buttons of their own.
    await expect(row.getByRole('button', { name: /#|work|planning/ })).toHaveCount(0);
    await expect(row.getByTestId('chat-tags-marker')).toHaveCount(1);
    const focusable = await row.locator('a[href], button, input, [tabindex]:not([tabindex="-1"])').count();
    expect(focusable, title).toBeLessThanOrEqual(2);
  }
}

test('chat titles come first in the sidebar: tags are one small marker, and filtering by a tag is in the row’s menu', async ({ page, server, admin }) => {
  await taggedChats(server, admin);
  await signIn(page, admin.email, admin.password);
  await expectTitlesFirst(page);
  const first = page.getByTestId('chat-row').first();
  await expect(first.getByTestId('chat-tags-marker')).toHaveAttribute('title', '#work #planning #questions');
  await snap(page, 'sidebar-tagged-chats');
  await first.hover();
  await first.getByRole('button', { name: /^Actions for / }).click();
  await page.getByRole('menuitem', { name: 'Show chats tagged #planning' }).click();
  await expect(page.getByPlaceholder('Search chats')).toHaveValue('tag:planning');
});

test('Deutsch: chat titles come first in the sidebar and the tag filter is named in German', async ({ page, server, admin }) => {
  await taggedChats(server, admin);
  await server.as(admin.token).post('/api/v1/users/user/settings/update', { language: 'de' });
  await page.goto('/');
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Neuer Chat' })).toBeVisible();
  await expectTitlesFirst(page);
  await snap(page, 'i18n-de-sidebar-tagged-chats');
  const first = page.getByTestId('chat-row').first();
  await first.hover();
  await first.getByRole('button', { name: /^Aktionen für / }).click();
  await expect(page.getByRole('menuitem', { name: 'Chats mit dem Tag #work anzeigen' })).toBeVisible();
});
