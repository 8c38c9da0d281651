import type { Page } from '@playwright/test';
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
