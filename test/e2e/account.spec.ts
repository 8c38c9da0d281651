import { expect, signIn, snap, test } from './fixtures';

test('a user creates an API key, copies it, uses it, and revokes it', async ({ page, context, server, admin }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, admin.email, admin.password);
  await page.getByRole('button', { name: /Ada Admin/ }).click();
  await page.getByRole('menuitem', { name: 'Account' }).click();
  await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
  await expect(page.getByText('You have no API key.')).toBeVisible();

  await page.getByRole('button', { name: 'Create API key' }).click();
  const field = page.getByTestId('api-key');
  await expect(field).toHaveValue(/^sk-[0-9a-f]{20,}$/);
  const key = await field.inputValue();
  await snap(page, 'account');

  await page.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Copied' })).toBeVisible();
  expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(key);

  // The copied key really works against the API.
  const me = await server.as(key).get('/api/v1/auths/');
  expect(me.status).toBe(200);
  expect(me.body.email).toBe(admin.email);

  // Hidden by default after a reload, and revocable.
  await page.reload();
  await expect(page.getByTestId('api-key')).toHaveValue(/•/);
  await page.getByRole('button', { name: 'Revoke' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('You have no API key.')).toBeVisible();
  expect((await server.as(key).get('/api/v1/auths/')).status).toBe(401);
});

test('a user changes their name and password from the account page', async ({ page, server, admin }) => {
  await signIn(page, admin.email, admin.password);
  await page.goto('/account');
  const profile = page.getByRole('region', { name: 'Profile' });
  await profile.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
  await profile.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('button', { name: /Ada Lovelace/ })).toBeVisible();

  await page.getByLabel('Current password').fill('not-my-password');
  await page.getByLabel('New password', { exact: true }).fill('new-password-1');
  await page.getByLabel('Confirm new password').fill('new-password-1');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('alert').filter({ hasText: /password/i })).toBeVisible();
  await page.getByLabel('Current password').fill(admin.password);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Password changed.' })).toBeVisible();
  const signin = await server.anon.post('/api/v1/auths/signin', { email: admin.email, password: 'new-password-1' });
  expect(signin.status).toBe(200);
});
