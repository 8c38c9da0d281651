import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { expect, sendMessage, signIn, test } from './fixtures';

// Issue 27, item 4: the message box keeps the focus when a new chat becomes a saved one (`/` → `/c/<id>`).

let openai: FakeOpenAI;
test.beforeEach(async () => {
  openai = await startFakeOpenAI({ models: ['fake-gpt'] });
});
test.afterEach(async () => {
  await openai.close();
});

test('after the first message of a new chat, what the person types next lands in the message box', async ({ page, server, admin }) => {
  await server.as(admin.token).post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
  openai.reply({ text: 'Hello there, how can I help?', delayMs: 20 });
  await signIn(page, admin.email, admin.password);
  await expect(page.getByRole('button', { name: 'Model: fake-gpt' })).toBeVisible();
  await sendMessage(page, 'Hi');
  await expect(page).toHaveURL(/\/c\//);
  await expect(page.getByTestId('message-assistant').last()).toContainText('how can I help');
  await page.keyboard.type('and another');
  await expect(page.getByRole('textbox', { name: 'Send a message' })).toHaveValue('and another');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('message-user')).toHaveCount(2);
  await page.keyboard.type('third');
  await expect(page.getByRole('textbox', { name: 'Send a message' })).toHaveValue('third');
});
