import type { Page } from '@playwright/test';
import { startFakeOpenAI, type FakeOpenAI, lastUserText as lastUser } from '../fixtures/fake-openai';
import { startSlowLink, type SlowLink } from '../helpers/slow-link';
import { expect, sendMessage, signIn, snap, test } from './fixtures';

// Issue 27, item 3: what was on screen at Stop is what is kept, saved and continued.

let openai: FakeOpenAI;
test.beforeEach(async () => {
  openai = await startFakeOpenAI({ models: ['fake-gpt'] });
});
test.afterEach(async () => {
  await openai.close();
});

/** A fast provider: 1500 words, one every millisecond or two. */
const story = Array.from({ length: 1500 }, (_, i) => `word${i} `);

/** The page through a slow link (each direction delayed), as a colleague on a slow LAN sees it. */
const slowTest = test.extend<{ link: SlowLink }>({
  link: async ({ server }, use) => {
    const link = await startSlowLink(server.url, 150);
    await use(link);
    await link.close();
  },
  baseURL: async ({ link }, use) => {
    await use(link.url);
  },
});

async function stopMidStreamAndCheck(page: Page, server: { url: string; as(token: string): { get(path: string): Promise<{ body: any }> } }, token: string, name: string) {
  openai.reply((body) => (lastUser(body).includes('### Task') ? { text: '{"title": "Story"}' } : { pieces: story, delayMs: 1 }));
  // What the answer read at the very moment Stop was pressed (before the click is handled).
  await page.evaluate(`
    document.addEventListener('click', (e) => {
      if (e.target.closest('[aria-label="Stop generating"]')) {
        const bodies = document.querySelectorAll('[data-testid="message-assistant"] .answer-body');
        window.atStop = bodies[bodies.length - 1]?.innerText ?? '';
      }
    }, true);
  `);
  await sendMessage(page, 'Tell me a long story');
  const answer = page.getByTestId('message-assistant').last();
  await expect(answer).toContainText('word60');
  await page.getByRole('button', { name: 'Stop generating' }).click();
  const atStop = await page.evaluate<string>('window.atStop');
  expect(atStop).toContain('word60');
  await expect(answer.getByTestId('stopped-mark')).toBeVisible();

  // For three seconds the answer reads exactly as it did at Stop: never shorter, never longer, never empty.
  // (Compared without trailing white space: when Stop lands just after a space piece, the streaming
  // view still holds that space, and the finished Markdown paragraph, like any, does not show it.)
  const body = answer.locator('.answer-body');
  for (let i = 0; i < 30; i += 1) {
    expect((await body.innerText()).trimEnd()).toBe(atStop.trimEnd());
    await page.waitForTimeout(100);
  }
  await snap(page, `${name}-stopped`);
  const chatId = new URL(page.url()).pathname.split('/').pop()!;
  const saved = (await server.as(token).get(`/api/v1/chats/${chatId}`)).body.messages.find((m: { role: string }) => m.role === 'assistant');
  expect(saved.content.trim()).toBe(atStop.trim());
  expect(saved.status).toBe('interrupted');

  await page.reload();
  await expect(page.getByTestId('message-assistant').last().getByTestId('stopped-mark')).toBeVisible();
  // (the markdown renderer loads lazily after a reload: until then the plain text shows)
  await expect.poll(async () => (await page.getByTestId('message-assistant').last().locator('.answer-body').innerText()).trimEnd()).toBe(atStop.trimEnd());

  // Continue goes on from the text that was on screen, word for word.
  openai.reply({ text: ' and they lived happily ever after.' });
  await page.getByTestId('message-assistant').last().getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByTestId('message-assistant').last()).toContainText('happily ever after');
  const sent = openai.lastChat()!.body.messages!;
  expect(sent.at(-1)).toEqual({ role: 'assistant', content: saved.content });
}

test('stopping a fast answer keeps exactly what was on screen: after a while, after a reload, and for Continue', async ({ page, server, admin }) => {
  await server.as(admin.token).post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
  await signIn(page, admin.email, admin.password);
  await expect(page.getByRole('button', { name: 'Model: fake-gpt' })).toBeVisible();
  await stopMidStreamAndCheck(page, server, admin.token, 'chat-stop-fast');
});

slowTest('on a slow LAN, where the service streams on before it hears of the Stop, the saved answer is still what was on screen', async ({ page, server, admin }) => {
  await server.as(admin.token).post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
  await signIn(page, admin.email, admin.password);
  await expect(page.getByRole('button', { name: 'Model: fake-gpt' })).toBeVisible();
  await stopMidStreamAndCheck(page, server, admin.token, 'chat-stop-slow-lan');
});

test('Stop in German keeps the text too, and the mark reads in German', async ({ page, server, admin }) => {
  await server.as(admin.token).post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
  await server.as(admin.token).post('/api/v1/users/user/settings/update', { language: 'de' });
  await page.goto('/');
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('button', { name: 'Modell: fake-gpt' })).toBeVisible();
  openai.reply((body) => (lastUser(body).includes('### Task') ? { text: '{"title": "Geschichte"}' } : { pieces: story, delayMs: 1 }));
  const input = page.getByRole('textbox', { name: 'Nachricht senden' });
  await input.fill('Erzähl mir eine lange Geschichte');
  await input.press('Enter');
  const answer = page.getByTestId('message-assistant').last();
  await expect(answer).toContainText('word60');
  await page.getByRole('button', { name: 'Antwort stoppen' }).click();
  const shown = await answer.locator('.answer-body').innerText();
  await expect(answer.getByTestId('stopped-mark')).toBeVisible();
  await page.waitForTimeout(1500);
  expect(await answer.locator('.answer-body').innerText()).toBe(shown);
  await page.reload();
  await expect.poll(() => page.getByTestId('message-assistant').last().locator('.answer-body').innerText()).toBe(shown);
  await snap(page, 'chat-stop-de');
});
