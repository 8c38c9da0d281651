import { expect, signIn, snap, test } from './fixtures';

test('an admin turns offline mode on and off under Admin → Network, and Parley then refuses downloads', async ({ page, server, admin }) => {
  await signIn(page, admin.email, admin.password);
  await page.goto('/admin/lan');
  const panel = page.getByTestId('offline-panel');
  await expect(panel.getByRole('heading', { name: 'Offline' })).toBeVisible();
  await expect(panel.getByText('Parley sends no telemetry, online or not.', { exact: false })).toBeVisible();
  const toggle = panel.getByRole('switch', { name: 'Work offline' });
  await expect(toggle).not.toBeChecked();
  await expect(panel.locator('.badge')).toHaveText('Online');

  await toggle.click();
  await expect(toggle).toBeChecked();
  await expect(panel.locator('.badge')).toHaveText('Offline');
  await panel.scrollIntoViewIfNeeded();
  await snap(page, 'admin-offline-on');
  expect((await server.services.offline.status()).offline).toBe(true);
  const download = await server.as(admin.token).post('/builtin/models/download', { url: 'https://huggingface.co/a/b/resolve/main/c.gguf' });
  expect(download.status).toBe(403);

  // It stays on across a reload, and turns off again.
  await page.reload();
  await expect(toggle).toBeChecked();
  await toggle.click();
  await expect(toggle).not.toBeChecked();
  expect((await server.services.offline.status()).offline).toBe(false);
});
