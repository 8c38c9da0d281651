import { startFakeOpenAI } from '../fixtures/fake-openai';
import { tinyGguf } from '../fixtures/tiny-gguf';
import { expect, signIn, snap, test } from './fixtures';

test('“Chat with it” on an installed local model opens a new chat with that model, listed under “On this computer”', async ({ page, server, admin }) => {
  test.setTimeout(120_000);
  const openai = await startFakeOpenAI({ models: ['fake-gpt', 'fake-embed'] });
  try {
    await server.as(admin.token).post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
    await signIn(page, admin.email, admin.password);
    await page.goto('/admin/local-models');
    await page.getByLabel('GGUF model file').setInputFiles({ name: 'tiny-llama.gguf', mimeType: 'application/octet-stream', buffer: tinyGguf() });
    await expect(page.locator('tr', { hasText: 'Tiny Test Llama' }).getByText('ready')).toBeVisible({ timeout: 40_000 });
    await page.reload();
    const chatWithIt = page.getByRole('button', { name: 'Chat with it' });
    await expect(chatWithIt).toBeVisible();
    await chatWithIt.click();

    await expect(page).toHaveURL(/\/\?model=/);
    await expect(page.getByRole('button', { name: /Model: Tiny Test Llama/ })).toBeVisible();
    await expect(page.getByLabel('Send a message')).toBeVisible();
    await page.getByRole('button', { name: /^Model:/ }).click();
    const list = page.getByRole('listbox');
    await expect(list.getByText('On this computer')).toBeVisible();
    await expect(list.getByText('Other models')).toHaveCount(0);
    // An embedding model is never offered to chat with.
    await expect(list.getByRole('option', { name: /fake-embed/ })).toHaveCount(0);
    await expect(list.getByRole('option', { name: /fake-gpt/ })).toBeVisible();
    await snap(page, 'chat-with-local-model');

    await server.as(admin.token).post('/api/v1/users/user/settings/update', { language: 'de' });
    await page.reload();
    await page.getByRole('button', { name: /^Modell/ }).click();
    await expect(page.getByRole('listbox').getByText('Auf diesem Computer')).toBeVisible();
  } finally {
    await openai.close();
  }
});
