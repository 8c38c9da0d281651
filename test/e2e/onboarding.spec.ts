import { expect, snap, test } from './fixtures';

test('first visit shows the welcome screen and creates the admin account', async ({ page, server }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Welcome to Parley' })).toBeVisible();
  await snap(page, 'welcome');

  // Validation happens before anything is sent.
  await page.getByRole('button', { name: 'Create admin account' }).click();
  await expect(page.getByText('Enter your name.')).toBeVisible();

  await page.getByLabel('Name').fill('Ada Admin');
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByLabel('Password').fill('admin-password');
  await page.getByRole('button', { name: 'Create admin account' }).click();

  // The new admin is guided through connecting a provider (not dropped on the raw connections form).
  await expect(page).toHaveURL(/\/setup$/);
  await expect(page.getByRole('heading', { name: 'Set up Parley' })).toBeVisible();
  await expect(page.getByTestId('setup-option-compat')).toBeVisible();
  const config = await server.anon.get('/api/config');
  expect(config.body.onboarding).toBe(false);
  await snap(page, 'first-run-setup');
  await page.getByRole('button', { name: 'Skip for now' }).click();
  await page.getByRole('link', { name: 'Admin settings' }).click();
  await expect(page.getByRole('heading', { name: 'Admin settings' })).toBeVisible();

  // Signing out shows the sign-in form (not the welcome screen), and signing in works.
  await page.getByRole('button', { name: /^Ada Admin/ }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Parley' })).toBeVisible();
  await snap(page, 'signin');
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert').filter({ hasText: /password/i })).toBeVisible();
  await page.getByLabel('Password').fill('admin-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Back where the admin was when signing out.
  await expect(page.getByRole('heading', { name: 'Admin settings' })).toBeVisible();
  await page.getByRole('button', { name: 'New chat' }).click();
  await expect(page.getByRole('heading', { name: /how can I help today/ })).toBeVisible();
});
