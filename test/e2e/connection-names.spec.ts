import { startFakeOllama } from '../fixtures/fake-ollama';
import { startFakeOpenAI } from '../fixtures/fake-openai';
import { expect, signIn, snap, test } from './fixtures';

test('an admin names a connection, and the model picker lists its models under that name (English, then German)', async ({ page, server, admin }) => {
  const openai = await startFakeOpenAI({ models: ['fake-gpt'] });
  const ollama = await startFakeOllama({ models: ['llama-fake:latest'] });
  try {
    const api = server.as(admin.token);
    await api.post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
    await api.post('/local/config/update', { LOCAL_BASE_URLS: [ollama.url] });
    await signIn(page, admin.email, admin.password);
    await page.goto('/admin/connections');
    const compat = page.locator('section', { has: page.getByRole('heading', { name: 'OpenAI-compatible APIs' }) });
    await expect(compat.getByText('Shown over this connection’s models in model lists', { exact: false })).toBeVisible();
    await compat.getByLabel('Name 1', { exact: true }).fill('Office GPU');
    await snap(page, 'admin-connection-name');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
    expect((await api.get('/compat/config')).body.COMPAT_API_CONFIGS['0'].name).toBe('Office GPU');

    await page.getByRole('button', { name: 'New chat' }).click();
    await page.getByRole('button', { name: /^Model:/ }).click();
    const list = page.getByRole('listbox');
    await expect(list.getByText('Office GPU', { exact: true })).toBeVisible();
    await expect(list.getByText('Ollama connection 1')).toBeVisible();
    await expect(list.getByText('OpenAI-compatible connection 1')).toHaveCount(0);

    await api.post('/api/v1/users/user/settings/update', { language: 'de' });
    await page.goto('/admin/connections');
    await expect(page.getByLabel('Name 1', { exact: true }).first()).toHaveValue('Office GPU');
    await expect(page.getByText('Steht in Modelllisten über den Modellen dieser Verbindung', { exact: false }).first()).toBeVisible();
  } finally {
    await openai.close();
    await ollama.close();
  }
});
