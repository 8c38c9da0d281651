import { expect, signIn, snap, test } from './fixtures';

test('the chosen theme applies at once and stays after a reload', async ({ page, admin }) => {
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

  // "System" follows the operating system's preference.
  await page.goto('/account');
  await page.getByRole('radio', { name: 'System' }).click();
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(html).toHaveAttribute('data-theme', 'light');
});
