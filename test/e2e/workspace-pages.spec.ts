import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { expect, signIn, snap, test } from './fixtures';

let openai: FakeOpenAI;
test.beforeEach(async () => {
  openai = await startFakeOpenAI({ models: ['fake-gpt', 'fake-embed'] });
});
test.afterEach(async () => {
  await openai.close();
});

test('a knowledge base is renamed, described and shared with a group, and a file opens its extracted text and chunks', async ({ page, server, admin }) => {
  const api = server.as(admin.token);
  await api.post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
  const group = (await api.post('/api/v1/groups/create', { name: 'Support', description: '' })).body as { id: string };
  const base = (await api.post('/api/v1/knowledge/create', { name: 'Draft', description: '' })).body as { id: string };
  await signIn(page, admin.email, admin.password);
  await page.goto(`/workspace/knowledge/${base.id}`);
  await page.getByTestId('knowledge-file-input').setInputFiles([{ name: 'parking.md', mimeType: 'text/markdown', buffer: Buffer.from(`# Parking\n\n${'Staff park in the blue garage on level 3. '.repeat(60)}\n\n## Visitors\n\nVisitors use the yellow lot.\n`) }]);
  const file = page.getByTestId('knowledge-file').filter({ hasText: 'parking.md' });
  await expect(file).toContainText('completed', { timeout: 30_000 });

  await page.getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Name, description, language and access' });
  await dialog.getByLabel('Name').fill('Office handbook');
  await dialog.getByLabel('Description').fill('Parking and visitors');
  await dialog.getByRole('radio', { name: /Private/ }).check();
  await dialog.getByRole('button', { name: 'Support' }).first().click();
  await snap(page, 'workspace-knowledge-settings');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { name: 'Office handbook' })).toBeVisible();
  await expect(page.getByText('Parking and visitors')).toBeVisible();
  const saved = (await api.get(`/api/v1/knowledge/${base.id}`)).body;
  expect(saved.access_control.read.group_ids).toEqual([group.id]);

  await file.getByRole('button', { name: 'Preview parking.md' }).click();
  const preview = page.getByRole('dialog', { name: 'parking.md' });
  await expect(preview.getByTestId('extracted-text')).toContainText('Visitors use the yellow lot.');
  const chunksTab = preview.getByRole('tab', { name: /^Chunks \(\d+\)$/ });
  const count = Number((await chunksTab.textContent())!.match(/\d+/)![0]);
  expect(count).toBeGreaterThan(1);
  await chunksTab.click();
  await expect(preview.getByTestId('chunks').locator('li')).toHaveCount(count);
  await expect(preview.getByTestId('chunks')).toContainText('#1');
  await snap(page, 'workspace-knowledge-preview');
});
