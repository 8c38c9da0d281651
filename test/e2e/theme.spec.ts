import { expect, signIn, snap, test } from './fixtures';

test('the chosen theme applies at once, stays after a reload, and follows the account to another browser', async ({ page, browser, server, admin }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await signIn(page, admin.email, admin.password);
  const html = page.locator('html');
  await expect(html).toHaveAttribute('data-theme', 'light');

  await page.getByRole('button', { name: /Ada Admin/ }).click();
  await page.getByRole('radio', { name: 'Dark' }).click();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  const background = await page.evaluate<string>('getComputedStyle(document.body).backgroundColor');
  expect(background).not.toBe('rgb(255, 255, 255)');
  await page.keyboard.press('Escape');
  await snap(page, 'chat-empty-dark');

  await page.reload();
  await expect(page.getByRole('button', { name: /^Model:/ })).toBeVisible();
  await expect(html).toHaveAttribute('data-theme', 'dark');

  // Saved to the account: another browser (no local storage) gets the same theme after signing in.
  const other = await browser.newContext({ baseURL: server.url, colorScheme: 'light' });
  const elsewhere = await other.newPage();
  await signIn(elsewhere, admin.email, admin.password);
  await expect(elsewhere.locator('html')).toHaveAttribute('data-theme', 'dark');
  await other.close();

  // "System" follows the operating system's preference.
  await page.goto('/account');
  await page.getByRole('radio', { name: 'System' }).click();
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(html).toHaveAttribute('data-theme', 'light');
});
