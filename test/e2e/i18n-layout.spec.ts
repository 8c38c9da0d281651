import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import type { TestUser } from '../helpers/builders';
import type { TestServer } from '../helpers/server';
import { expect, pseudoTest, signIn, snap, test } from './fixtures';

/**
 * Layout in other languages: right to left mirrors the whole shell, and the pseudo-locale (texts
 * 40% longer) clips no label. Right to left runs in the `ar-XB` pseudo-locale, and in Arabic and
 * Hebrew as soon as their catalogs ship.
 */

const locales = path.resolve(import.meta.dirname, '../../renderer/src/locales');

/** An answer that mixes an Arabic paragraph, an English one, code and a formula. */
const MIXED = 'هذا ملخص التقرير للفريق.\n\nThe report says "revenue grew 12%" in Q3.\n\n```python\nprint("hi")\n```\n\nالمعادلة $E=mc^2$ مهمة.';

let openai: FakeOpenAI;
test.beforeEach(async () => {
  openai = await startFakeOpenAI({ models: ['fake-gpt'] });
});
test.afterEach(async () => {
  await openai.close();
});

async function chatWithMixedAnswer(server: TestServer, admin: TestUser): Promise<string> {
  const api = server.as(admin.token);
  await api.post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
  const chatId = (await api.post('/api/v1/chats/new', { title: 'Report' })).body.id as string;
  await api.post(`/api/v1/chats/${chatId}/messages`, { role: 'user', content: 'Summarise the report' });
  await api.post(`/api/v1/chats/${chatId}/messages`, { role: 'assistant', content: MIXED });
  return chatId;
}

async function chooseLanguage(page: Page, code: string): Promise<void> {
  await page.goto('/account');
  await page.getByTestId('language-picker').selectOption(code);
  await expect(page.locator('html')).toHaveAttribute('lang', code);
}

const box = async (page: Page, selector: string) => {
  const found = await page.locator(selector).first().boundingBox();
  if (!found) throw new Error(`${selector} is not laid out`);
  return found;
};

/** Each paragraph of an answer takes its own direction; code and formulas stay left to right. */
async function expectMixedAnswerReadsRight(page: Page): Promise<void> {
  const answer = page.getByTestId('message-assistant');
  await expect(answer.locator('.katex')).toBeVisible();
  // The callbacks run in the page (DOM types are not part of this Node project).
  const directions = await answer.evaluate((el: any) => {
    const paragraphs: any[] = Array.from(el.querySelectorAll('p'));
    const style = (selector: string) => el.ownerDocument.defaultView.getComputedStyle(el.querySelector(selector)).direction as string;
    return {
      arabic: paragraphs[0].matches(':dir(rtl)') as boolean,
      english: paragraphs.find((p) => p.textContent.startsWith('The report')).matches(':dir(ltr)') as boolean,
      code: style('pre'),
      formula: style('.katex'),
    };
  });
  expect(directions).toEqual({ arabic: true, english: true, code: 'ltr', formula: 'ltr' });
}

/** The shell mirrored: sidebar on the right, the composer's send button on its left, menus inside the screen. */
async function expectMirrored(page: Page, chatId: string, shot: string): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await page.goto(`/c/${chatId}`);
  await expect(page.getByTestId('message-assistant')).toBeVisible();
  const width = page.viewportSize()!.width;
  const sidebar = await box(page, 'nav.sidebar');
  const main = await box(page, 'main#main');
  expect(sidebar.x).toBeGreaterThan(width / 2);
  expect(sidebar.x + sidebar.width).toBeCloseTo(width, 0);
  expect(main.x + main.width).toBeLessThanOrEqual(sidebar.x + 1);

  const input = await box(page, '.composer-input');
  const send = await box(page, '.send-btn');
  const attach = await box(page, '.composer-bar .icon-btn');
  expect(send.x + send.width).toBeLessThan(input.x + input.width / 2);
  expect(attach.x).toBeGreaterThan(input.x + input.width / 2);

  // The user's question sits at the inline end (left); the answer and its actions start on the right.
  const question = await box(page, '.bubble-user');
  const answer = await box(page, '[data-testid="message-assistant"] .markdown');
  const actions = await box(page, '[data-testid="message-assistant"] .msg-actions');
  expect(question.x).toBeLessThan(answer.x + answer.width / 2);
  expect(actions.x + actions.width).toBeCloseTo(answer.x + answer.width, -1);
  await expectMixedAnswerReadsRight(page);
  await snap(page, `${shot}-chat`);

  // A chat's menu opens inside the sidebar and the screen.
  await page.locator('.chat-item').first().hover();
  await page.locator('.chat-item .icon-btn').first().click();
  const menu = await box(page, '.chat-item .menu');
  expect(menu.x).toBeGreaterThanOrEqual(sidebar.x - 1);
  expect(menu.x + menu.width).toBeLessThanOrEqual(width + 1);
  await snap(page, `${shot}-chat-menu`);
  await page.keyboard.press('Escape');

  // The account menu opens above its button, inside the sidebar.
  await page.locator('.user-button').click();
  const userMenu = await box(page, '.user-menu');
  expect(userMenu.x).toBeGreaterThanOrEqual(sidebar.x - 1);
  await page.keyboard.press('Escape');

  // Tables read from the right: the first column is the rightmost.
  await page.goto('/admin/users');
  const first = await box(page, 'table thead th:first-child');
  const last = await box(page, 'table thead th:last-child');
  expect(first.x).toBeGreaterThan(last.x);
  await snap(page, `${shot}-admin-users`);
}

pseudoTest('right to left (pseudo-locale ar-XB): the shell mirrors and mixed Arabic and English answers read correctly', async ({ page, server, admin }) => {
  const chatId = await chatWithMixedAnswer(server, admin);
  await signIn(page, admin.email, admin.password);
  // Even in the English (left-to-right) UI, the Arabic paragraph reads right to left.
  await page.goto(`/c/${chatId}`);
  await expectMixedAnswerReadsRight(page);
  await snap(page, 'i18n-ltr-mixed-answer');

  await chooseLanguage(page, 'ar-XB');
  await expectMirrored(page, chatId, 'i18n-rtl-pseudo');
});

for (const code of ['ar', 'he'].filter((c) => existsSync(path.join(locales, c)))) {
  test(`right to left in ${code}: the shell mirrors and mixed answers read correctly`, async ({ page, server, admin }) => {
    const chatId = await chatWithMixedAnswer(server, admin);
    await signIn(page, admin.email, admin.password);
    await chooseLanguage(page, code);
    await expectMirrored(page, chatId, `i18n-rtl-${code}`);
  });
}

/**
 * Labels of the pseudo-locale (bracketed, accented) that are cut off: by an ancestor that clips
 * its overflow, or by the edge of the screen. Screen-reader-only text is skipped.
 */
async function clippedLabels(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const { document, NodeFilter, getComputedStyle, innerWidth } = globalThis as any;
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      if (!/\[[^\]]*[áéîöûŕšţ]/.test(text) && !/[áéîöûŕšţ][^[]*\]/.test(text)) continue;
      const element = node.parentElement;
      if (!element || element.closest('.sr-only, [aria-hidden="true"], option, select')) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const rects: any[] = Array.from(range.getClientRects()).filter((r: any) => r.width > 0 && r.height > 0);
      if (rects.length === 0) continue;
      const left = Math.min(...rects.map((r) => r.left));
      const right = Math.max(...rects.map((r) => r.right));
      const top = Math.min(...rects.map((r) => r.top));
      const bottom = Math.max(...rects.map((r) => r.bottom));
      const where = `${element.tagName.toLowerCase()}${element.className && typeof element.className === 'string' ? `.${element.className.trim().split(/\s+/).join('.')}` : ''}: ${text.trim().slice(0, 60)}`;
      if (left < -1 || right > innerWidth + 1) {
        out.push(`${where} (off screen)`);
        continue;
      }
      for (let a: any = element; a && a !== document.body; a = a.parentElement) {
        const style = getComputedStyle(a);
        const clipsX = ['hidden', 'clip'].includes(style.overflowX);
        const clipsY = ['hidden', 'clip'].includes(style.overflowY);
        if (!clipsX && !clipsY) continue;
        const r = a.getBoundingClientRect();
        if ((clipsX && (left < r.left - 1 || right > r.right + 1)) || (clipsY && (top < r.top - 1 || bottom > r.bottom + 1))) {
          out.push(where);
          break;
        }
      }
    }
    return [...new Set(out)];
  });
}

pseudoTest('in the pseudo-locale (texts 40% longer) no label of the main screens is clipped or runs off the screen', async ({ page, server, admin }) => {
  test.setTimeout(180_000);
  const chatId = await chatWithMixedAnswer(server, admin);
  await signIn(page, admin.email, admin.password);
  await chooseLanguage(page, 'en-XA');
  // The check itself sees a label cut off by a box too narrow for it.
  await page.evaluate(() => {
    const { document } = globalThis as any;
    const probe = document.createElement('div');
    probe.id = 'clip-probe';
    probe.style.cssText = 'width: 40px; overflow: hidden; white-space: nowrap';
    probe.textContent = '[Šéñð á ɱéššáĝé]';
    document.body.append(probe);
  });
  expect(await clippedLabels(page)).toContainEqual(expect.stringContaining('Šéñð á ɱéššáĝé'));
  await page.evaluate(() => (globalThis as any).document.getElementById('clip-probe').remove());
  const screens = [
    '/',
    `/c/${chatId}`,
    '/workspace/models',
    '/workspace/knowledge',
    '/workspace/tools',
    '/workspace/prompts',
    '/workspace/models/new',
    '/admin/users',
    '/admin/groups',
    '/admin/permissions',
    '/admin/auth',
    '/admin/connections',
    '/admin/local-models',
    '/admin/tool-servers',
    '/admin/retrieval',
    '/admin/tasks',
    '/admin/lan',
    '/admin/api-usage',
    '/account',
    '/setup',
  ];
  const problems: string[] = [];
  for (const route of screens) {
    await page.goto(route);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-XA');
    await expect(page.locator('.spinner')).toHaveCount(0, { timeout: 15_000 });
    await expect(page.locator('main, [data-testid="setup-screen"]').first()).toContainText('[');
    for (const found of await clippedLabels(page)) problems.push(`${route} ${found}`);
    await snap(page, `i18n-pseudo${route.replace(/[/:]+/g, '-').replace(/-$/, '') || '-home'}`);
  }
  // The sign-in page, in a fresh browser that remembers the pseudo-locale.
  const context = await page.context().browser()!.newContext({ baseURL: server.url });
  try {
    const signInPage = await context.newPage();
    await signInPage.addInitScript(() => (globalThis as any).localStorage.setItem('parley.language', 'en-XA'));
    await signInPage.goto('/');
    await expect(signInPage.locator('html')).toHaveAttribute('lang', 'en-XA');
    await expect(signInPage.getByRole('heading').first()).toContainText('[');
    for (const found of await clippedLabels(signInPage)) problems.push(`/signin ${found}`);
    await snap(signInPage, 'i18n-pseudo-signin');
  } finally {
    await context.close();
  }
  expect(problems).toEqual([]);
});
