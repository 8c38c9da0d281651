import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { expect, signIn, snap, test } from './fixtures';

let openai: FakeOpenAI;
test.beforeEach(async () => {
  openai = await startFakeOpenAI({ models: ['fake-gpt'] });
});
test.afterEach(async () => {
  await openai.close();
});

test('an admin adds a provider connection with its prefix and tags, verifies it (model count), and its models appear in the picker', async ({ page, server, admin }) => {
  await signIn(page, admin.email, admin.password);
  await page.goto('/admin/connections');
  const compat = page.locator('section').filter({ hasText: 'OpenAI-compatible APIs' });
  await compat.getByRole('button', { name: 'Add connection' }).click();
  await compat.getByLabel('Base URL 1').fill(openai.url);
  await compat.getByLabel('API key 1').fill('sk-anything');
  await compat.getByRole('button', { name: 'Verify' }).click();
  await expect(compat.getByRole('status').filter({ hasText: 'Connection works: 1 model found.' })).toBeVisible();

  await compat.getByLabel('Base URL 1').fill('http://127.0.0.1:9/v1');
  await compat.getByRole('button', { name: 'Verify' }).click();
  await expect(compat.getByRole('status').filter({ hasText: /Connection failed/ })).toBeVisible();
  await compat.getByLabel('Base URL 1').fill(openai.url);
  await compat.getByLabel('Prefix id 1').fill('work');
  await compat.getByLabel('Tags 1').fill('team, cloud');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  await snap(page, 'admin-connection-verified');

  await page.getByRole('button', { name: 'New chat' }).click();
  await page.getByRole('button', { name: /^Model:/ }).click();
  await expect(page.getByRole('option', { name: /fake-gpt/ })).toBeVisible();
  const saved = (await server.as(admin.token).get('/compat/config')).body;
  expect(saved.COMPAT_API_CONFIGS['0']).toMatchObject({ enable: true, prefix_id: 'work', tags: [{ name: 'team' }, { name: 'cloud' }] });
});

test('a streamed answer can be stopped, regenerated into a second version, and survives a reload', async ({ page, server, admin }) => {
  await server.as(admin.token).post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
  await signIn(page, admin.email, admin.password);
  await expect(page.getByRole('button', { name: 'Model: fake-gpt' })).toBeVisible();

  // A slow answer: the stop button ends it early.
  openai.replyOnce({ text: Array.from({ length: 60 }, (_, i) => `word${i}`).join(' '), delayMs: 80 });
  const input = page.getByLabel('Send a message');
  await input.fill('Tell me a long story');
  await input.press('Enter');
  await expect(page).toHaveURL(/\/c\/[\w-]+$/);
  const answer = page.getByTestId('message-assistant').last();
  await expect(answer).toContainText('word3');
  await page.getByRole('button', { name: 'Stop generating' }).click();
  await expect(page.getByRole('button', { name: 'Send message' })).toBeVisible();
  await expect(answer).not.toContainText('word59');

  // Regenerate gives a second version, and both can be browsed.
  openai.reply({ text: 'A **short** answer with `code` and a list:\n\n- one\n- two' });
  await answer.getByRole('button', { name: 'Regenerate' }).click();
  await expect(page.getByTestId('message-assistant').last()).toContainText('A short answer');
  await expect(page.getByTestId('message-assistant').last().locator('strong')).toHaveText('short');
  await expect(page.getByText('2/2')).toBeVisible();
  await page.getByRole('button', { name: 'Previous version' }).click();
  await expect(page.getByText('1/2')).toBeVisible();
  await expect(page.getByTestId('message-assistant').last()).toContainText('word3');
  await page.getByRole('button', { name: 'Next version' }).click();
  await expect(page.getByTestId('message-assistant').last()).toContainText('A short answer');
  await snap(page, 'chat-answer');

  // The chat is in the sidebar under the title generated after its first complete answer (the fake answers
  // the title task with its scripted text), and comes back whole after a reload.
  await expect(page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: /A short answer with code/ })).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('message-user')).toContainText('Tell me a long story');
  await expect(page.getByTestId('message-assistant').last()).toContainText('A short answer');
  await expect(page.getByText('2/2')).toBeVisible();
});

test('a file attached to a message is uploaded and sent with it, and keeps its name', async ({ page, server, admin }) => {
  await server.as(admin.token).post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
  await signIn(page, admin.email, admin.password);
  await expect(page.getByRole('button', { name: 'Model: fake-gpt' })).toBeVisible();
  await page.getByTestId('file-input').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('The launch code word is PELICAN.\n'.repeat(20)) });
  const chip = page.getByTestId('attachment');
  await expect(chip).toContainText('notes.txt');
  await expect(chip.getByRole('progressbar')).toHaveCount(0);
  const uploaded = await server.as(admin.token).get('/api/v1/files/' + (await chip.getAttribute('data-file-id')));
  expect(uploaded.body.filename).toBe('notes.txt');
  openai.reply({ text: 'Got the notes.' });
  await page.getByLabel('Send a message').fill('What is in the notes?');
  const request = page.waitForRequest('**/api/chat/completions');
  await page.getByRole('button', { name: 'Send message' }).click();
  expect((await request).postDataJSON().files).toEqual([{ type: 'file', id: uploaded.body.id }]);
  await expect(page.getByTestId('message-assistant').last()).toContainText('Got the notes.');
  await expect(page.getByTestId('message-user')).toContainText('notes.txt');
  // After a reload the saved message still shows the file by name.
  await page.reload();
  await expect(page.getByTestId('message-user')).toContainText('notes.txt');
});

test('keyboard: Shift+Enter adds a line, Enter sends, and an error answer offers a retry', async ({ page, server, admin }) => {
  await server.as(admin.token).post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
  await signIn(page, admin.email, admin.password);
  await expect(page.getByRole('button', { name: 'Model: fake-gpt' })).toBeVisible();
  const input = page.getByLabel('Send a message');
  await input.fill('first line');
  await input.press('Shift+Enter');
  await input.pressSequentially('second line');
  await expect(input).toHaveValue('first line\nsecond line');
  openai.replyOnce({ status: 500, error: 'the provider is down' });
  await input.press('Enter');
  const answer = page.getByTestId('message-assistant').last();
  await expect(answer.getByRole('alert')).toBeVisible();
  openai.reply({ text: 'Back online.' });
  await answer.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByTestId('message-assistant').last()).toContainText('Back online.');
});
