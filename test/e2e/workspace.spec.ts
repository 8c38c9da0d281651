import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { expect, signIn, snap, test } from './fixtures';

let openai: FakeOpenAI;
test.beforeEach(async () => {
  openai = await startFakeOpenAI({ models: ['fake-gpt', 'fake-embed'] });
});
test.afterEach(async () => {
  await openai.close();
});

test('a custom model made in the workspace answers with its system prompt', async ({ page, server, admin }) => {
  await server.as(admin.token).post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
  await signIn(page, admin.email, admin.password);
  await page.getByRole('link', { name: 'Workspace' }).click();
  await expect(page.getByText(/No custom models yet/)).toBeVisible();
  await page.getByRole('link', { name: 'New model' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Pirate Helper');
  await expect(page.getByLabel('Model id')).toHaveValue('pirate-helper');
  await page.getByLabel('Base model').selectOption('fake-gpt');
  await page.getByLabel('System prompt').fill('You always answer like a pirate.');
  await page.getByLabel('Temperature').fill('0.3');
  await snap(page, 'workspace-model-editor');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('link', { name: 'Pirate Helper', exact: true })).toBeVisible();
  await snap(page, 'workspace-models');

  await page.getByRole('button', { name: 'New chat' }).click();
  await page.getByRole('button', { name: /^Model:/ }).click();
  await page.getByRole('option', { name: /Pirate Helper/ }).click();
  openai.reply({ text: 'Arr, ahoy!' });
  await page.getByLabel('Send a message').fill('Hello');
  await page.getByLabel('Send a message').press('Enter');
  await expect(page.getByTestId('message-assistant').last()).toContainText('Arr, ahoy!');
  const turn = openai.chats().find((r) => JSON.stringify(r.body.messages).includes('Hello') && !JSON.stringify(r.body.messages).includes('### Task'));
  expect(turn?.body.messages[0]).toMatchObject({ role: 'system', content: expect.stringContaining('You always answer like a pirate.') });
  expect(turn?.body.temperature).toBe(0.3);
});

test('documents added to a knowledge base show their progress, and answers using it cite them', async ({ page, server, admin }) => {
  await server.as(admin.token).post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
  await signIn(page, admin.email, admin.password);
  await page.goto('/workspace/knowledge');
  await page.getByRole('button', { name: 'New knowledge base' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill('Handbook');
  await page.getByRole('dialog').getByLabel('Description').fill('Office rules');
  await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('heading', { name: 'Handbook' })).toBeVisible();

  await page.getByTestId('knowledge-file-input').setInputFiles([
    { name: 'parking.md', mimeType: 'text/markdown', buffer: Buffer.from('# Parking\n\nStaff park in the blue garage on level 3. Visitors use the yellow lot.\n') },
    { name: 'broken.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> broken beyond repair') },
  ]);
  const files = page.getByTestId('knowledge-file');
  await expect(files.filter({ hasText: 'parking.md' })).toContainText('completed', { timeout: 30_000 });
  await expect(files.filter({ hasText: 'broken.pdf' })).toContainText('Failed', { timeout: 30_000 });
  await snap(page, 'workspace-knowledge');

  await page.getByRole('button', { name: 'New chat' }).click();
  await expect(page.getByRole('button', { name: 'Model: fake-gpt' })).toBeVisible();
  await page.getByRole('button', { name: 'Use knowledge' }).click();
  await page.getByRole('checkbox', { name: /Handbook/ }).check();
  await page.getByRole('button', { name: 'Use knowledge' }).click();
  openai.reply({ text: 'Staff park in the blue garage [1].' });
  await page.getByLabel('Send a message').fill('Where does staff park?');
  await page.getByLabel('Send a message').press('Enter');
  const answer = page.getByTestId('message-assistant').last();
  await expect(answer).toContainText('blue garage');
  await expect(answer.getByRole('button', { name: /parking\.md/ })).toBeVisible();
  await answer.getByRole('button', { name: /parking\.md/ }).click();
  await expect(page.getByRole('dialog')).toContainText('level 3');
  await snap(page, 'chat-citation');
});

test('the Python tool editor saves a tool and shows the service’s validation messages', async ({ page, admin }) => {
  await signIn(page, admin.email, admin.password);
  await page.goto('/workspace/tools');
  await page.getByRole('link', { name: 'New Python tool' }).click();
  await expect(page.locator('.cm-editor')).toBeVisible();
  await page.getByLabel('Name', { exact: true }).fill('Clock');
  await page.getByLabel('Description').fill('Tells the time');
  await snap(page, 'workspace-tool-editor');

  // Broken code is refused with the service's message, next to the editor.
  await page.locator('.cm-content').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('def broken(:\n');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('alert', { name: 'Validation' })).toBeVisible({ timeout: 30_000 });
  await expect(page).toHaveURL(/\/workspace\/tools\/new$/);

  await page.locator('.cm-content').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText('class Tools:\n    def now(self) -> str:\n        """Current time."""\n        return "noon"\n');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page).toHaveURL(/\/workspace\/tools$/, { timeout: 30_000 });
  await expect(page.getByRole('link', { name: 'Clock', exact: true })).toBeVisible();
});
