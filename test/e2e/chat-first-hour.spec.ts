import type { Page } from '@playwright/test';
import { startFakeOpenAI, type ChatBody, type FakeOpenAI, type FakeReply, lastUserText as lastUser } from '../fixtures/fake-openai';
import { expect, signIn, snap, test, sendMessage } from './fixtures';

// What a new user does in their first hour, clicked and typed as they would.

let openai: FakeOpenAI;
test.beforeEach(async () => {
  openai = await startFakeOpenAI({ models: ['fake-gpt'] });
});
test.afterEach(async () => {
  await openai.close();
});

const systemText = (body: ChatBody | undefined) => (body?.messages ?? []).filter((m) => m.role === 'system').map((m) => String(m.content)).join('\n');

/** Answers chat messages with `answer`, and the title task with a JSON title. */
function withTitle(title: string, answer: (body: ChatBody) => FakeReply) {
  return (body: ChatBody): FakeReply => (lastUser(body).includes('### Task') ? { text: lastUser(body).includes('title') ? `{"title": "${title}"}` : '[]' } : answer(body));
}

async function ready(page: Page, server: { as(token: string): { post(path: string, body: unknown): Promise<unknown> } }, admin: { token: string; email: string; password: string }) {
  await server.as(admin.token).post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
  await signIn(page, admin.email, admin.password);
  await expect(page.getByRole('button', { name: 'Model: fake-gpt' })).toBeVisible();
}

test('bug 1: "Summarize this document" with an attached file sends the whole file, and the answer says so', async ({ page, server, admin }) => {
  await ready(page, server, admin);
  openai.reply(withTitle('Memo summary', () => ({ text: 'The memo is about soup and parking.' })));
  await page.getByTestId('file-input').setInputFiles({ name: 'memo.txt', mimeType: 'text/plain', buffer: Buffer.from('Cafeteria news.\n\nThe cafeteria serves lentil soup on Fridays.\n\nParking moves to level B in June.') });
  await expect(page.getByTestId('attachment').getByRole('progressbar')).toHaveCount(0);
  await sendMessage(page, 'Summarize this document');
  await expect(page.getByTestId('message-assistant').last()).toContainText('soup and parking');
  const sent = openai.chats().find((r) => lastUser(r.body) === 'Summarize this document');
  expect(systemText(sent?.body)).toContain('lentil soup on Fridays');
  expect(systemText(sent?.body)).toContain('Parking moves to level B');
  await expect(page.getByRole('button', { name: /memo\.txt.*full document/ })).toBeVisible();
});

test('bug 2: a new chat gets its generated title live in the sidebar, never the first 60 characters', async ({ page, server, admin }) => {
  await ready(page, server, admin);
  openai.reply(withTitle('Sourdough Starter Care', () => ({ text: 'Feed it flour and water daily.' })));
  const question = 'How often should I feed my sourdough starter when I keep it in the fridge most of the week?';
  await sendMessage(page, question);
  await expect(page.getByTestId('message-assistant').last()).toContainText('Feed it flour');
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  await expect(nav.getByRole('link', { name: /Sourdough Starter Care/ })).toBeVisible();
  await expect(nav.getByRole('link', { name: new RegExp(question.slice(0, 30)) })).toHaveCount(0);
});

test('bug 3: display math ($$…$$ and \\[…\\]) renders as a centred block', async ({ page, server, admin }) => {
  await ready(page, server, admin);
  openai.reply(withTitle('Math', () => ({ text: 'The area is $$A = \\pi r^2$$ and the sum is \\[ \\sum_{i=1}^{n} i \\] as shown.' })));
  await sendMessage(page, 'Give me two formulas');
  const answer = page.getByTestId('message-assistant').last();
  await expect(answer.locator('.katex-display')).toHaveCount(2);
  const first = answer.locator('.katex-display').first();
  await expect(first).toHaveCSS('text-align', 'center');
  await expect(first).toHaveCSS('display', 'block');
});

test('bug 4: sending while scrolled up brings the new message into view', async ({ page, server, admin }) => {
  await ready(page, server, admin);
  openai.reply(withTitle('Long', (body) => ({ text: lastUser(body).startsWith('Last') ? 'Short reply to the last question.' : Array.from({ length: 120 }, (_, i) => `Line ${i} of a long answer.`).join('\n\n') })));
  await sendMessage(page, 'First question');
  await expect(page.getByTestId('message-assistant').last()).toContainText('Line 119');
  await expect(page.getByRole('button', { name: 'Send message' })).toBeVisible();
  await page.locator('.thread-scroll').evaluate((el) => (el.scrollTop = 0));
  await expect(page.getByText('Line 119 of a long answer.')).not.toBeInViewport();
  await sendMessage(page, 'Last question here');
  await expect(page.getByTestId('message-user').filter({ hasText: 'Last question here' })).toBeInViewport();
  await expect(page.getByText('Short reply to the last question.')).toBeInViewport();
  await expect(page.getByRole('button', { name: 'Jump to latest' })).toHaveCount(0);
});

test('bug 5: stopping is neutral, keeps the partial answer with a quiet mark, survives a reload and can be continued', async ({ page, server, admin }) => {
  await ready(page, server, admin);
  openai.reply(withTitle('Story', () => ({ text: Array.from({ length: 80 }, (_, i) => `word${i}`).join(' '), delayMs: 60 })));
  await sendMessage(page, 'Tell me a long story');
  const answer = page.getByTestId('message-assistant').last();
  await expect(answer).toContainText('word3');
  await page.getByRole('button', { name: 'Stop generating' }).click();
  await expect(answer.getByTestId('stopped-mark')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(answer).not.toContainText('failed');
  await page.reload();
  await expect(page.getByTestId('message-assistant').last().getByTestId('stopped-mark')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);

  openai.reply({ text: ' and they lived happily ever after.' });
  await page.getByTestId('message-assistant').last().getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByTestId('message-assistant').last()).toContainText('happily ever after');
  await expect(page.getByTestId('message-assistant').last()).toContainText('word3');
  const sent = openai.lastChat()!.body.messages!;
  expect(sent.at(-1)).toMatchObject({ role: 'assistant' });
  expect(String(sent.at(-1)!.content)).toContain('word3');
  await page.reload();
  await expect(page.getByTestId('message-assistant').last()).toContainText('happily ever after');
});

test('bug 7: the knowledge popover closes on Escape and after sending; no stale jump arrow in a short chat', async ({ page, server, admin }) => {
  await ready(page, server, admin);
  openai.reply(withTitle('Hi', () => ({ text: 'Hello!' })));
  const knowledge = page.getByRole('button', { name: 'Use knowledge' });
  await knowledge.click();
  await expect(page.getByRole('group', { name: 'Knowledge for this message' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('group', { name: 'Knowledge for this message' })).toHaveCount(0);
  await knowledge.click();
  await expect(page.getByRole('group', { name: 'Knowledge for this message' })).toBeVisible();
  await page.getByLabel('Send a message').fill('Hi there');
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByRole('group', { name: 'Knowledge for this message' })).toHaveCount(0);
  await expect(page.getByTestId('message-assistant').last()).toContainText('Hello!');
  await expect(page.getByRole('button', { name: 'Jump to latest' })).toHaveCount(0);
  await snap(page, 'chat-short');
});

test('bug 7: Verify says how many models a connection lists, or why it fails; counts use the right plural', async ({ page, server, admin }) => {
  await ready(page, server, admin);
  await page.goto('/admin/connections');
  const row = page.getByTestId('connection-row').first();
  await row.getByRole('button', { name: 'Verify' }).click();
  await expect(row.getByRole('status')).toHaveText('Connection works: 1 model found.');
  const closed = openai.url;
  await openai.close();
  await row.getByRole('button', { name: 'Verify' }).click();
  await expect(row.getByRole('status')).toHaveText(`Connection failed: Cannot reach ${closed}: nothing is listening at that address (connection refused).`);
  await snap(page, 'admin-connection-verify-failed');
  openai = await startFakeOpenAI({ models: ['fake-gpt'] });

  await page.goto('/admin/users');
  await expect(page.getByText('1 user', { exact: true })).toBeVisible();
});
