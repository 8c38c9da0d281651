import { expect, signIn, test } from './fixtures';

const GERMAN = 'Die alten Häuser am Fluss werden im Frühling frisch gestrichen. Die Nachbarn helfen einander dabei jedes Jahr, und am Abend feiern alle zusammen im Garten.';

test('changing a knowledge base’s language shows the re-indexing progress, then the new language', async ({ page, server, admin }) => {
  const api = server.as(admin.token);
  const base = (await api.post('/api/knowledge/create', { name: 'Häuser', description: 'Notizen' })).body.id as string;
  const form = new FormData();
  form.append('files', new Blob([GERMAN]), 'haeuser.txt');
  const fileId = (await api.raw('POST', '/api/v1/chats/attachment/upload', form)).body[0].id as string;
  await api.post(`/api/knowledge/${base}/file/add`, { file_id: fileId });
  await expect.poll(async () => (await api.get(`/api/v1/knowledge/${base}`)).body.files[0]?.status, { timeout: 30_000 }).toBe('completed');

  await signIn(page, admin.email, admin.password);
  await page.goto(`/workspace/knowledge/${base}`);
  await expect(page.getByTestId('knowledge-language')).toHaveText('Searched in German');

  // A re-index of one document ends within milliseconds: the next answers of the base report it
  // under way (as a large base would) before the service's own answers take over again.
  let underWay = 0;
  await page.route(`**/api/v1/knowledge/${base}`, async (route) => {
    const response = await route.fetch();
    if (underWay === 0 || route.request().method() !== 'GET') return route.fulfill({ response });
    underWay -= 1;
    return route.fulfill({ response, json: { ...(await response.json()), reindexing: 0.42 } });
  });

  await page.getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByLabel('Language of the documents')).toHaveValue('german');
  await dialog.getByLabel('Language of the documents').selectOption('english');
  underWay = 3;
  await dialog.getByRole('button', { name: 'Save' }).click();

  // Shown on the page, and in the dialog too while it is still closing.
  await expect(page.getByRole('status').filter({ hasText: 'Re-indexing in English: 42%' }).first()).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Re-indexing' }).first()).toHaveAttribute('aria-valuenow', '42');
  await expect(page.getByTestId('knowledge-language')).toHaveText('Searched in English');
  expect((await api.get(`/api/v1/knowledge/${base}`)).body).toMatchObject({ language: 'english', reindexing: null });
});
