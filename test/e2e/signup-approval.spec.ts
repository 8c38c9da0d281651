import { expect, signIn, snap, test } from './fixtures';

test('a new user signs up, waits for approval, and gets in once an admin approves', async ({ page, browser, server, admin }) => {
  const visitor = await browser.newContext({ baseURL: server.url });
  const newcomer = await visitor.newPage();
  await newcomer.goto('/');
  await newcomer.getByRole('link', { name: 'Create account' }).click();
  await expect(newcomer.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await newcomer.getByLabel('Name').fill('Grace Hopper');
  await newcomer.getByLabel('Email').fill('grace@example.com');
  await newcomer.getByLabel('Password').fill('grace-password');
  await newcomer.getByRole('button', { name: 'Create account' }).click();
  await expect(newcomer.getByRole('heading', { name: 'Waiting for approval' })).toBeVisible();
  await expect(newcomer.getByText('grace@example.com')).toBeVisible();
  await snap(newcomer, 'pending');

  // The admin sees the pending account and approves it.
  await signIn(page, admin.email, admin.password);
  await page.goto('/admin/users');
  const row = page.getByTestId('user-row-grace@example.com');
  await expect(row).toBeVisible();
  await expect(row.getByRole('combobox')).toHaveValue('pending');
  await snap(page, 'admin-users');
  await row.getByRole('button', { name: 'Approve' }).click();
  await expect(row.getByRole('combobox')).toHaveValue('user');
  const saved = await server.as(admin.token).get('/api/v1/users/?query=grace');
  expect(saved.body.users[0].role).toBe('user');

  // The waiting page notices by itself and opens the chat, without admin links.
  await expect(newcomer.getByRole('heading', { name: /how can I help today/ })).toBeVisible({ timeout: 15_000 });
  await expect(newcomer.getByRole('link', { name: 'Admin settings' })).toHaveCount(0);
  await visitor.close();
});
