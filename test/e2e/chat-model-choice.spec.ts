import type { Page } from '@playwright/test';
import { startFakeOpenAI, type ChatBody, type FakeOpenAI, lastUserText as lastUser } from '../fixtures/fake-openai';
import { expect, signIn, snap, test } from './fixtures';

let first: FakeOpenAI;
let second: FakeOpenAI;
test.beforeEach(async () => {
  first = await startFakeOpenAI({ models: ['fake-gpt'] });
  second = await startFakeOpenAI({ models: ['other-model'] });
});
test.afterEach(async () => {
  await first.close();
  await second.close().catch(() => undefined);
});

const reply = (text: string) => (body: ChatBody) => (lastUser(body).includes('### Task') ? { text: '{"title": "A chat"}' } : { text });

async function ready(page: Page, server: { as(token: string): { post(path: string, body: unknown): Promise<unknown> } }, admin: { token: string; email: string; password: string }) {
  await server.as(admin.token).post('/compat/config/update', { COMPAT_API_BASE_URLS: [first.url, second.url], COMPAT_API_KEYS: ['', ''], COMPAT_API_CONFIGS: {} });
  first.reply(reply('Answer from the first connection.'));
  second.reply(reply('Answer from the second connection.'));
  await signIn(page, admin.email, admin.password);
  await expect(page.getByRole('button', { name: /^Model: / })).toBeVisible();
}

async function pick(page: Page, name: string) {
  await page.getByRole('button', { name: /^Model: / }).click();
  await page.getByRole('option', { name }).click();
}

test('the picker groups models by connection, shows each name once and the id on hover', async ({ page, server, admin }) => {
  await ready(page, server, admin);
  await page.getByRole('button', { name: /^Model: / }).click();
  const one = page.getByRole('group', { name: 'OpenAI-compatible connection 1' });
  const two = page.getByRole('group', { name: 'OpenAI-compatible connection 2' });
  await expect(one.getByRole('option', { name: 'fake-gpt' })).toBeVisible();
  await expect(two.getByRole('option', { name: 'other-model' })).toBeVisible();
  await expect(two.getByRole('option', { name: 'other-model' })).toHaveAttribute('title', 'other-model');
  await expect(two.getByRole('option', { name: 'other-model' })).toHaveText('other-model');
  await snap(page, 'chat-model-picker');
  await page.keyboard.press('Escape');
  await expect(one).toHaveCount(0);
});

test('bug 6: with a connection down, the chosen model stays, a banner names the connection, and an admin can jump to it', async ({ page, server, admin }) => {
  await ready(page, server, admin);
  await pick(page, 'other-model');
  await expect(page.getByRole('button', { name: 'Model: other-model' })).toBeVisible();
  await second.close();
  await page.getByRole('button', { name: 'New chat' }).click();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Model: other-model' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Model: other-model' })).toContainText('unavailable');
  const banner = page.getByTestId('connection-banner');
  await expect(banner).toContainText('Cannot reach OpenAI-compatible connection 2');
  await expect(banner).toContainText(second.url);
  await snap(page, 'chat-connection-down');
  await banner.getByRole('link', { name: 'Open connections' }).click();
  await expect(page).toHaveURL(/\/admin\/connections$/);
});

test('@ mentions a model for one message; the chat keeps its model', async ({ page, server, admin }) => {
  await ready(page, server, admin);
  await pick(page, 'fake-gpt');
  const input = page.getByLabel('Send a message');
  await input.fill('@oth');
  await expect(page.getByRole('listbox', { name: 'Models you can mention' })).toBeVisible();
  await input.press('Enter');
  await expect(page.getByTestId('mention')).toContainText('other-model');
  await input.fill('Which connection answers?');
  await input.press('Enter');
  await expect(page.getByTestId('message-assistant').last()).toContainText('Answer from the second connection.');
  expect(second.chats().some((r) => lastUser(r.body) === 'Which connection answers?')).toBe(true);
  await expect(page.getByTestId('mention')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Model: fake-gpt' })).toBeVisible();
});

test('the empty chat offers suggested prompts an admin can edit; clicking one sends it', async ({ page, server, admin }) => {
  await ready(page, server, admin);
  await pick(page, 'fake-gpt');
  await expect(page.getByRole('button', { name: /Summarize a document/ })).toBeVisible();
  await snap(page, 'chat-empty');
  await page.getByRole('button', { name: 'Edit suggested prompts' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit suggested prompts' });
  await dialog.getByRole('button', { name: 'Add suggestion' }).click();
  const rows = await dialog.getByRole('group').count();
  await dialog.getByLabel(`Title of suggestion ${rows}`, { exact: true }).fill('Plan a trip');
  await dialog.getByLabel(`Prompt of suggestion ${rows}`).fill('Plan three days in Lisbon.');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);
  await page.getByRole('button', { name: /Plan a trip/ }).click();
  await expect(page.getByTestId('message-user')).toContainText('Plan three days in Lisbon.');
  await expect(page.getByTestId('message-assistant').last()).toContainText('Answer from the first connection.');
});

test('personal settings: a default model and a personal system prompt apply to new chats', async ({ page, server, admin }) => {
  await ready(page, server, admin);
  await pick(page, 'fake-gpt');
  await page.goto('/account');
  await page.getByLabel('Default model').selectOption('other-model');
  await page.getByLabel('Personal system prompt').fill('Answer like a pirate.');
  await page.getByRole('button', { name: 'Save' }).last().click();
  await expect(page.getByText('Saved').first()).toBeVisible();
  await page.getByRole('button', { name: 'New chat' }).click();
  await expect(page.getByRole('button', { name: 'Model: other-model' })).toBeVisible();
  const input = page.getByLabel('Send a message');
  await input.fill('Hello');
  await input.press('Enter');
  await expect(page.getByTestId('message-assistant').last()).toContainText('Answer from the second connection.');
  const sent = second.chats().find((r) => lastUser(r.body) === 'Hello')!;
  expect(String(sent.body.messages?.find((m: { role?: string }) => m.role === 'system')?.content)).toContain('Answer like a pirate.');
});
