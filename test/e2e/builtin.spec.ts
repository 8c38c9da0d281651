import { tinyGguf } from '../fixtures/tiny-gguf';
import { expect, signIn, snap, test } from './fixtures';

test('with no provider and no network, an admin imports a GGUF and chats with it', async ({ page, admin }) => {
  test.setTimeout(240_000);
  await signIn(page, admin.email, admin.password);
  await page.goto('/admin/local-models');
  await expect(page.getByRole('heading', { name: 'Local models' })).toBeVisible();
  await page.getByLabel('GGUF model file').setInputFiles({ name: 'tiny-llama.gguf', mimeType: 'application/octet-stream', buffer: tinyGguf() });
  const row = page.locator('tr', { hasText: 'Tiny Test Llama' });
  await expect(row).toBeVisible({ timeout: 40_000 });
  await expect(row).toContainText('llama');
  await expect(row).toContainText('2,048');
  await expect(row).toContainText('F32');
  await expect(row.getByText('ready')).toBeVisible();
  await snap(page, 'admin-local-models');

  // A file llama.cpp cannot load is refused with the reason, and the page keeps working.
  await page.getByLabel('GGUF model file').setInputFiles({ name: 'broken.gguf', mimeType: 'application/octet-stream', buffer: tinyGguf({ omit: ['llama.feed_forward_length'] }) });
  await expect(page.getByText(/not a loadable GGUF model/)).toBeVisible({ timeout: 40_000 });

  await page.getByRole('button', { name: 'New chat' }).click();
  await page.getByRole('button', { name: /^Model:/ }).click();
  await page.getByRole('option', { name: /Tiny Test Llama/ }).click();
  await expect(page.getByRole('button', { name: /Model: Tiny Test Llama/ })).toBeVisible();
  const input = page.getByLabel('Send a message');
  await input.fill('Hello, tiny model');
  await input.press('Enter');
  await expect(page).toHaveURL(/\/c\/[\w-]+$/);
  const answer = page.getByTestId('message-assistant').last();
  // The tiny model may write up to 1,024 tokens of gibberish: minutes on a busy 2-core machine.
  await expect(page.getByRole('button', { name: 'Send message' })).toBeVisible({ timeout: 150_000 });
  await expect(answer).not.toBeEmpty();
  expect(((await answer.textContent()) ?? '').trim().length).toBeGreaterThan(3);
  await snap(page, 'chat-builtin-model');
});
