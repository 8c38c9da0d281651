import type { Page } from '@playwright/test';
import { buildUser } from '../helpers/builders';
import { expect, signIn, snap, test } from './fixtures';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
  expect(overflow).toBeLessThanOrEqual(0);
}

test('on a phone the sign-in form fits the screen', async ({ page, admin }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Sign in to Parley' })).toBeVisible();
  await noSidewaysScroll(page);
  const button = await page.getByRole('button', { name: 'Sign in' }).boundingBox();
  expect(button!.width).toBeGreaterThan(300);
  await snap(page, 'phone-signin');
  await signIn(page, admin.email, admin.password);
});

test('on a phone the chat fills the screen and the sidebar opens as a drawer', async ({ page, admin }) => {
  await signIn(page, admin.email, admin.password);
  await noSidewaysScroll(page);
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  await expect(nav).not.toBeInViewport();
  const composer = await page.getByLabel('Send a message').boundingBox();
  expect(composer!.width).toBeGreaterThan(300);
  await snap(page, 'phone-chat');

  await page.getByRole('button', { name: 'Main menu' }).click();
  await expect(nav).toBeInViewport();
  await expect(nav.getByRole('link', { name: 'Workspace' })).toBeVisible();
  await snap(page, 'phone-drawer');
  await nav.getByRole('link', { name: 'Workspace' }).click();
  await expect(nav).not.toBeInViewport();
  await expect(page.getByRole('heading', { name: 'Workspace' })).toBeVisible();
  await noSidewaysScroll(page);
});

test('on a phone the users table becomes cards whose actions are reachable without scrolling sideways', async ({ page, server, admin }) => {
  await buildUser(server, admin, 'user', 'Grace Hopper-Longname');
  await buildUser(server, admin, 'pending', 'Pending Person');
  await signIn(page, admin.email, admin.password);
  await page.goto('/admin/users');
  const row = page.locator('[data-testid^="user-row-"]').filter({ hasText: 'Pending Person' });
  await expect(row).toBeVisible();
  await noSidewaysScroll(page);
  for (const name of [/^Approve$/, /^Edit user: Pending Person/, /^Delete: Pending Person/]) {
    const button = row.getByRole('button', { name });
    await button.scrollIntoViewIfNeeded();
    const box = (await button.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  await expect(row.getByLabel('Role: Pending Person')).toBeVisible();
  await snap(page, 'phone-users');
  await row.getByRole('button', { name: /^Approve$/ }).click();
  await expect(row.getByRole('button', { name: /^Approve$/ })).toHaveCount(0);

  for (const path of ['/admin/connections', '/admin/groups', '/workspace/prompts', '/workspace/knowledge']) {
    await page.goto(path);
    await expect(page.locator('.page')).toBeVisible();
    await noSidewaysScroll(page);
  }
});

test('on a phone the chat has one top bar: the model picker sits beside the menu button, and its list fits the screen', async ({ page, admin }) => {
  await signIn(page, admin.email, admin.password);
  const menu = (await page.getByRole('button', { name: 'Main menu' }).boundingBox())!;
  const model = page.getByRole('button', { name: /^Model:/ });
  const picker = (await model.boundingBox())!;
  // Same row as the menu button, not a second bar under it.
  expect(Math.abs(picker.y + picker.height / 2 - (menu.y + menu.height / 2))).toBeLessThan(4);
  expect(picker.x).toBeGreaterThan(menu.x + menu.width - 1);
  expect(picker.x + picker.width).toBeLessThanOrEqual(390);
  await expect(page.locator('.chat-head')).toHaveCount(0);
  await snap(page, 'phone-chat-one-bar');
  await model.click();
  const list = page.locator('.model-menu');
  await expect(list).toBeVisible();
  const box = (await list.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await noSidewaysScroll(page);
});

test('on a phone the admin settings areas are one menu of one row, not rows of tabs, and it reaches every area', async ({ page, admin }) => {
  await signIn(page, admin.email, admin.password);
  await page.goto('/admin/users');
  await expect(page.getByRole('navigation', { name: 'Admin settings' })).toBeHidden();
  const menu = page.getByRole('combobox', { name: 'Settings area' });
  await expect(menu).toBeVisible();
  await expect(menu).toHaveValue('users');
  const box = (await menu.boundingBox())!;
  expect(box.height).toBeGreaterThanOrEqual(40);
  expect(box.height).toBeLessThan(60);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  // The users table starts right under it: no block of wrapped tabs in between.
  const table = (await page.getByRole('table').boundingBox())!;
  expect(table.y - (box.y + box.height)).toBeLessThan(120);
  // Every area of the (hidden) tab row is in the menu, and there are many of them.
  const areas = await page.locator('nav.admin-tabs a').count();
  expect(areas).toBeGreaterThan(10);
  expect(await menu.locator('option').count()).toBe(areas);
  await noSidewaysScroll(page);
  await snap(page, 'phone-admin-menu');
  await menu.selectOption({ label: 'API usage' });
  await expect(page).toHaveURL(/\/admin\/api-usage$/);
  await expect(menu).toHaveValue('api-usage');
});

test('on a phone the sign-in page shows the Parley mark drawn in colour, not an empty square', async ({ page, admin }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Sign in to Parley' })).toBeVisible();
  const logo = page.getByTestId('logo').filter({ visible: true });
  await expect(logo).toHaveCount(1);
  // Every gradient has its own id, so the visible mark never points at the hidden copy's.
  const ids = await page.locator('linearGradient').evaluateAll((els) => els.map((el) => el.getAttribute('id')));
  expect(new Set(ids).size).toBe(ids.length);
  const png = await logo.screenshot();
  const [r, g, b, a] = await pixelOf(page, png, 0.2, 0.5);
  // The indigo of the mark (#818cf8 → #4f46e5), not transparent or white.
  expect(a).toBeGreaterThan(200);
  expect(b).toBeGreaterThan(r + 40);
  expect(b).toBeGreaterThan(g + 40);
  await signIn(page, admin.email, admin.password);
});

/** The colour of a screenshot at a fraction of its width and height, read by the browser from the PNG. */
async function pixelOf(page: Page, png: Buffer, fx: number, fy: number): Promise<[number, number, number, number]> {
  return page.evaluate(
    async ([data, x, y]) => {
      // Runs in the page (DOM types are not part of this Node project).
      const { document, Image } = globalThis as any;
      const image = new Image();
      image.src = `data:image/png;base64,${data}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      const context = canvas.getContext('2d');
      context.drawImage(image, 0, 0);
      return Array.from(context.getImageData(Math.floor(image.width * x), Math.floor(image.height * y), 1, 1).data) as [number, number, number, number];
    },
    [png.toString('base64'), fx, fy] as const,
  );
}
