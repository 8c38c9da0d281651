import { tinyGguf } from '../fixtures/tiny-gguf';
import { expect, signIn, snap, test } from './fixtures';

test('an admin picks a built-in reranker model for knowledge search under Admin → Retrieval', async ({ page, server, admin }) => {
  await signIn(page, admin.email, admin.password);
  await page.goto('/admin/retrieval');
  const engine = page.getByLabel('Reranking', { exact: true });
  await engine.selectOption({ label: 'built-in model (this computer)' });
  // No reranker in the library yet: the page says where to get one.
  await expect(page.getByText('No reranker model yet', { exact: false })).toBeVisible();

  const form = new FormData();
  form.append('file', new Blob([tinyGguf({ reranker: true })]), 'tiny-reranker.gguf');
  const imported = await server.as(admin.token).raw('POST', '/builtin/models/import', form);
  expect(imported.status, imported.text).toBe(200);
  await page.reload();
  await page.getByLabel('Reranking', { exact: true }).selectOption({ label: 'built-in model (this computer)' });
  const model = page.getByLabel('Reranker model');
  await model.selectOption({ label: imported.body.name });
  await model.scrollIntoViewIfNeeded();
  await snap(page, 'admin-retrieval-local-reranker');
  await page.locator('section.card', { has: page.getByLabel('Reranker model') }).getByRole('button', { name: 'Save' }).click();
  await expect.poll(async () => (await server.as(admin.token).get('/api/v1/retrieval/config')).body).toMatchObject({ RAG_RERANKING_ENGINE: 'builtin', RAG_RERANKING_MODEL: imported.body.id });
});
