import type { Page } from '@playwright/test';
import { startFakeOpenAI, type FakeOpenAI, lastUserText as lastUser } from '../fixtures/fake-openai';
import { expect, signIn, snap, test, sendMessage } from './fixtures';

let openai: FakeOpenAI;
test.beforeEach(async () => {
  openai = await startFakeOpenAI({ models: ['fake-gpt'] });
});
test.afterEach(async () => {
  await openai.close();
});


async function ready(page: Page, server: { as(token: string): { post(path: string, body: unknown): Promise<unknown> } }, admin: { token: string; email: string; password: string }) {
  await server.as(admin.token).post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
  await signIn(page, admin.email, admin.password);
  await expect(page.getByRole('button', { name: 'Model: fake-gpt' })).toBeVisible();
}

test('answer actions: copy as text and as Markdown, read aloud, usage on hover, edit an answer', async ({ page, context, server, admin }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  // The system's voices are not there in a headless browser: note what would be spoken.
  await page.addInitScript('window.spoken = []; window.speechSynthesis.speak = (u) => void window.spoken.push(u.text);');
  const clipboard = () => page.evaluate<string>('navigator.clipboard.readText()');
  await ready(page, server, admin);
  openai.reply((body) => (lastUser(body).includes('### Task') ? { text: '{"title": "Tea"}' } : { text: 'Brew **green tea** at 80 °C.', usage: { prompt_tokens: 12, completion_tokens: 9, total_tokens: 21 } }));
  await sendMessage(page, 'How do I brew green tea?');
  const answer = page.getByTestId('message-assistant').last();
  await expect(answer.locator('strong')).toHaveText('green tea');

  await answer.getByRole('button', { name: 'Copy as Markdown' }).click();
  expect(await clipboard()).toBe('Brew **green tea** at 80 °C.');
  await answer.getByRole('button', { name: 'Copy message' }).click();
  expect(await clipboard()).toBe('Brew green tea at 80 °C.');

  await answer.getByRole('button', { name: 'Read aloud' }).click();
  expect(await page.evaluate<string[]>('window.spoken')).toEqual(['Brew green tea at 80 °C.']);

  await answer.getByRole('button', { name: 'Usage' }).hover();
  const tip = answer.getByRole('tooltip');
  await expect(tip).toBeVisible();
  await expect(tip).toContainText('Prompt: 12 tokens');
  await expect(tip).toContainText('Answer: 9 tokens');
  await expect(tip).toContainText(/First token after \d+\.\d\d s/);
  await expect(tip).toContainText(/tokens\/s/);
  await snap(page, 'chat-usage-tooltip');

  await answer.getByRole('button', { name: 'Edit answer' }).click();
  await answer.getByLabel('Edit answer').fill('Brew green tea at 75 °C for two minutes.');
  await answer.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('message-assistant').last()).toContainText('75 °C for two minutes');
  await expect(page.getByText('2/2')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('message-assistant').last()).toContainText('75 °C for two minutes');
});

test('inline citations: a [1] marker in the answer opens the passage it cites', async ({ page, server, admin }) => {
  await ready(page, server, admin);
  openai.reply((body) => (lastUser(body).includes('### Task') ? { text: '{"title": "Soup"}' } : { text: 'On Fridays the cafeteria serves lentil soup [1].' }));
  await page.getByTestId('file-input').setInputFiles({ name: 'menu.txt', mimeType: 'text/plain', buffer: Buffer.from('Weekly menu.\n\nThe cafeteria serves lentil soup on Fridays.') });
  await expect(page.getByTestId('attachment').getByRole('progressbar')).toHaveCount(0);
  await sendMessage(page, 'What soup is served on Fridays?');
  const answer = page.getByTestId('message-assistant').last();
  await answer.getByRole('button', { name: 'Source 1' }).click();
  const dialog = page.getByRole('dialog', { name: /\[1\] menu\.txt/ });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('lentil soup on Fridays');
  await snap(page, 'chat-citation');
});

test('rating: 👎 with a reason is saved and shown after a reload; with ENABLE_MESSAGE_RATING off there is nothing to rate', async ({ page, server, admin }) => {
  await ready(page, server, admin);
  openai.reply((body) => (lastUser(body).includes('### Task') ? { text: '{"title": "Capital"}' } : { text: 'The capital of Australia is Sydney.' }));
  await sendMessage(page, 'What is the capital of Australia?');
  const answer = page.getByTestId('message-assistant').last();
  await expect(answer).toContainText('Sydney');
  await expect(answer.getByRole('button', { name: 'Bad answer' })).toBeVisible();
  await answer.getByRole('button', { name: 'Bad answer' }).click();
  const why = page.getByRole('dialog', { name: 'Tell us more (optional)' });
  await why.getByRole('button', { name: 'Wrong facts' }).click();
  await why.getByRole('button', { name: 'Save' }).click();
  await expect(why).toHaveCount(0);
  await expect(answer.getByRole('button', { name: 'Bad answer' })).toHaveAttribute('aria-pressed', 'true');
  const chatId = new URL(page.url()).pathname.split('/').at(-1)!;
  const saved = await server.as(admin.token).get(`/api/v1/chats/${chatId}/ratings`);
  expect(saved.body).toEqual([expect.objectContaining({ rating: -1, reason: 'Wrong facts' })]);
  await page.reload();
  await expect(page.getByTestId('message-assistant').last().getByRole('button', { name: 'Bad answer' })).toHaveAttribute('aria-pressed', 'true');

  const config = (await server.as(admin.token).get('/api/v1/auths/admin/config')).body;
  await server.as(admin.token).post('/api/v1/auths/admin/config', { ...config, ENABLE_MESSAGE_RATING: false });
  await page.reload();
  await expect(page.getByTestId('message-assistant').last()).toContainText('Sydney');
  await expect(page.getByRole('button', { name: 'Bad answer' })).toHaveCount(0);
});
