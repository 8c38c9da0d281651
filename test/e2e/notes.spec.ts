import { buildUser } from '../helpers/builders';
import { expect, signIn, snap, test } from './fixtures';

// Two people edit one note from two browsers: saves arrive live, a stale save asks what to keep, nothing is lost.

test('two people edit one note: the other sees each save live, and a stale save offers a merge that keeps both', async ({ page, browser, server, admin }) => {
  const bob = await buildUser(server, admin, 'user', 'Bob Builder');
  const note = (await server.as(admin.token).post('/api/v1/notes/create', { title: 'Offsite plan', data: { content: { md: '# Agenda\n- budget' } }, access_control: { write: { user_ids: [bob.id] } } })).body;

  await signIn(page, admin.email, admin.password);
  await page.getByRole('link', { name: 'Notes' }).click();
  await expect(page.getByRole('heading', { name: 'Notes', level: 1 })).toBeVisible();
  await page.getByTestId('note-item').filter({ hasText: 'Offsite plan' }).click();
  const adaText = page.getByLabel('Note text (Markdown)');
  await expect(adaText).toHaveValue('# Agenda\n- budget');

  const bobContext = await browser.newContext({ baseURL: server.url });
  const bobPage = await bobContext.newPage();
  await signIn(bobPage, bob.email, bob.password);
  await bobPage.goto(`/notes/${note.id}`);
  const bobText = bobPage.getByLabel('Note text (Markdown)');
  await expect(bobText).toHaveValue('# Agenda\n- budget');

  // Ada writes; her save reaches Bob's screen without a reload.
  await adaText.press('Control+End');
  await adaText.pressSequentially('\n- hiring');
  await expect(page.getByTestId('note-status')).toHaveText('Saved');
  await expect(bobText).toHaveValue('# Agenda\n- budget\n- hiring');
  await snap(page, 'notes-editor');

  // Bob adds a line while Ada's next save lands (made through the API, between his typing and his autosave).
  await bobText.press('Control+End');
  await bobText.pressSequentially('\n- party');
  const current = (await server.as(admin.token).get(`/api/v1/notes/${note.id}`)).body;
  const saved = await server.as(admin.token).post(`/api/v1/notes/${note.id}/update`, { data: { content: { md: '# Agenda\n- budget (approved)\n- hiring' } }, version: current.version });
  expect(saved.status).toBe(200);

  const dialog = bobPage.getByRole('dialog', { name: 'Someone saved this note while you were writing' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('conflict-mine')).toContainText('- party');
  await expect(dialog.getByTestId('conflict-theirs')).toContainText('(approved)');
  await snap(bobPage, 'notes-conflict');
  await dialog.getByRole('button', { name: 'Merge both' }).click();
  await expect(bobText).toHaveValue('# Agenda\n- budget (approved)\n- hiring\n- party');
  await expect(bobPage.getByTestId('note-status')).toHaveText('Saved');

  // Both words made it to the service, and Ada sees the merge live.
  const stored = (await server.as(admin.token).get(`/api/v1/notes/${note.id}`)).body;
  expect(stored.data.content.md).toBe('# Agenda\n- budget (approved)\n- hiring\n- party');
  await expect(adaText).toHaveValue('# Agenda\n- budget (approved)\n- hiring\n- party');
  await bobContext.close();
});

test('a note is searched, previewed as Markdown, exported, and the Notes entry follows ENABLE_NOTES', async ({ page, server, admin }) => {
  const as = server.as(admin.token);
  await as.post('/api/v1/notes/create', { title: 'Recipe', data: { content: { md: '## Ingredients\n- **flour**\n- water' } } });
  await as.post('/api/v1/notes/create', { title: 'Trip', data: { content: { md: 'Train to Lyon' } } });
  await signIn(page, admin.email, admin.password);
  await page.goto('/notes');
  await page.getByLabel('Search notes').fill('flour');
  await expect(page.getByTestId('note-item')).toHaveCount(1);
  await page.getByTestId('note-item').click();
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(page.getByRole('heading', { name: 'Ingredients' })).toBeVisible();
  await expect(page.locator('.note-preview strong')).toHaveText('flour');
  await snap(page, 'notes-preview');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download as Markdown' }).click();
  expect((await download).suggestedFilename()).toBe('Recipe.md');

  await as.post('/api/v1/auths/admin/config', { ENABLE_NOTES: false });
  await page.goto('/');
  await expect(page.getByRole('button', { name: /^Model:/ })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Notes' })).toHaveCount(0);
});
