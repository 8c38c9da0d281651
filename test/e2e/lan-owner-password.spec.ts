import { startTestServer } from '../helpers/server';
import { expect, test } from './fixtures';
import { freePort } from '../helpers/free-port';

test('the desktop owner sets a password in a dialog before LAN sharing turns on', async ({ page }) => {
  const server = await startTestServer({ rendererDir: process.env.PARLEY_E2E_RENDERER });
  try {
    // The desktop window's sign-in: the one-time handover creates the owner without a password.
    const code = await server.services.desktop.handover.issue('Grace');
    await page.goto(`${server.url}/auths/desktop-handover?code=${code}`);
    await expect(page).toHaveURL(/\/setup$/);
    await page.goto(`${server.url}/admin/lan`);
    await page.getByLabel('Port').fill(String(await freePort()));
    await page.getByRole('button', { name: 'Use this port' }).click();
    await expect(page.getByRole('button', { name: 'Use this port' })).toBeDisabled();

    const toggle = page.getByRole('switch', { name: 'Share on local network' });
    await toggle.click();
    const dialog = page.getByRole('dialog', { name: 'Set a password first' });
    await expect(dialog).toBeVisible();
    await expect(toggle).not.toBeChecked();
    // Cancel: nothing is shared.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    expect((await server.services.lan.status()).enabled).toBe(false);

    await toggle.click();
    await dialog.getByLabel('Password', { exact: true }).fill('owner-password-1');
    await dialog.getByLabel('Confirm password').fill('owner-password-2');
    await dialog.getByRole('button', { name: 'Set password and share' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('The new passwords do not match.');
    await dialog.getByLabel('Confirm password').fill('owner-password-1');
    await dialog.getByRole('button', { name: 'Set password and share' }).click();
    await expect(dialog).toBeHidden();
    await expect(toggle).toBeChecked();
    await expect(page.getByText('Sharing', { exact: true })).toBeVisible();
    expect((await server.services.lan.status()).enabled).toBe(true);

    // The owner can now sign in from another device with that password.
    const owner = (await server.services.usersRepo.all())[0]!;
    expect((await server.anon.post('/api/v1/auths/signin', { email: owner.email, password: 'owner-password-1' })).status).toBe(200);
    // And the switch no longer asks.
    await toggle.click();
    await expect(toggle).not.toBeChecked();
    await toggle.click();
    await expect(dialog).toBeHidden();
    await expect(toggle).toBeChecked();
  } finally {
    await server.services.lan.update({ enabled: false });
    await server.close();
  }
});

test('the desktop owner sets a first password on the Account page, leaving the current one empty', async ({ page }) => {
  const server = await startTestServer({ rendererDir: process.env.PARLEY_E2E_RENDERER });
  try {
    const code = await server.services.desktop.handover.issue('Grace');
    await page.goto(`${server.url}/auths/desktop-handover?code=${code}`);
    await expect(page).toHaveURL(/\/setup$/);
    await page.goto(`${server.url}/account`);
    await expect(page.getByText('Leave empty if your account has no password yet')).toBeVisible();
    await page.getByLabel('New password', { exact: true }).fill('owner-password-1');
    await page.getByLabel('Confirm new password').fill('owner-password-1');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Password changed.' })).toBeVisible();
    const owner = (await server.services.usersRepo.all())[0]!;
    expect((await server.anon.post('/api/v1/auths/signin', { email: owner.email, password: 'owner-password-1' })).status).toBe(200);
  } finally {
    await server.close();
  }
});
