import { startFakeOpenAI, type ChatBody, type FakeOpenAI, lastUserText as lastUser } from '../fixtures/fake-openai';
import { expect, sendMessage, signIn, snap, test } from './fixtures';

// A memory added in Settings → Personalization shapes the next answer; the answer says which memory it was given.

let openai: FakeOpenAI;
test.beforeEach(async () => {
  openai = await startFakeOpenAI({ models: ['fake-gpt'] });
});
test.afterEach(async () => {
  await openai.close();
});

const systemOf = (body: ChatBody) => String(body.messages?.find((m) => m.role === 'system')?.content ?? '');

test('a memory added in Settings reaches the model with memory on, and the answer shows it was used', async ({ page, server, admin }) => {
  await server.as(admin.token).post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
  // The fake model echoes the system prompt it was given.
  openai.reply((body) => (lastUser(body).includes('### Task') ? { text: '{"title": "Colours"}' } : { text: `System said: ${systemOf(body) || 'nothing'}` }));

  await signIn(page, admin.email, admin.password);
  await page.goto('/account');
  const section = page.getByRole('region', { name: 'Personalization' });
  await section.getByLabel('Use memory in new chats').check();
  await section.getByLabel('A new memory').fill('My favourite colour is teal');
  await section.getByRole('button', { name: 'Add' }).click();
  await expect(section.getByTestId('memory-item')).toHaveText(/My favourite colour is teal/);
  await snap(page, 'personalization');

  await page.getByRole('button', { name: 'New chat' }).click();
  await expect(page.getByRole('button', { name: 'Memory', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await sendMessage(page, 'What is my favourite colour?');
  const answer = page.getByTestId('message-assistant').last();
  await expect(answer).toContainText('My favourite colour is teal', { timeout: 30_000 });
  await expect(answer.getByTestId('memories-used')).toContainText('Used 1 memory');
  await snap(page, 'chat-memory');

  // Turned off for this chat: the next answer is given no memory.
  await page.getByRole('button', { name: 'Memory', exact: true }).click();
  await sendMessage(page, 'And my favourite colour again?');
  await expect(page.getByTestId('message-assistant').last()).toContainText('System said: nothing');

  // Edited and forgotten from Settings.
  await page.goto('/account');
  await section.getByRole('button', { name: 'Edit the memory' }).click();
  await section.getByLabel('Edit the memory').fill('My favourite colour is orange');
  await section.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(section.getByTestId('memory-item')).toHaveText(/orange/);
  await section.getByRole('button', { name: 'Forget everything' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Forget everything' }).click();
  await expect(section.getByText('Nothing remembered yet.')).toBeVisible();
  expect((await server.as(admin.token).get('/api/v1/memories/')).body).toEqual([]);
});
