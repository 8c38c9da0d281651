import type { Locator, Page } from '@playwright/test';
import { startFakeOpenAI, type ChatBody, type FakeOpenAI, lastUserText as lastUser } from '../fixtures/fake-openai';
import type { TestUser } from '../helpers/builders';
import type { TestServer } from '../helpers/server';
import { expect, snap, test } from './fixtures';

// Issue 27, accessibility and minor chat items: the live region for finished answers, one tab stop
// per sidebar row, the version switch always shown, the phone's scroll button, files dropped on
// the page, a failed answer's actions, and a rating saved once with its reasons.

let openai: FakeOpenAI;
test.beforeEach(async () => {
  openai = await startFakeOpenAI({ models: ['fake-gpt'] });
});
test.afterEach(async () => {
  await openai.close();
});

const isTask = (body: ChatBody) => lastUser(body).includes('### Task');

/** The fake provider connected, the UI in `language`, signed in. */
async function ready(page: Page, server: TestServer, admin: TestUser, language = 'en'): Promise<void> {
  await server.as(admin.token).post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
  if (language !== 'en') await server.as(admin.token).post('/api/v1/users/user/settings/update', { language });
  await page.goto('/');
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: /fake-gpt/ })).toBeVisible();
}

/** Tabs from the chat search through the sidebar's list (chat rows and folders); the title or label of each stop in it. */
async function sidebarTabStops(page: Page): Promise<string[]> {
  await page.getByPlaceholder('Search chats').focus();
  const stops: string[] = [];
  for (let i = 0; i < 12; i += 1) {
    await page.keyboard.press('Tab');
    const inList = await page.evaluate<boolean>('!!document.activeElement?.closest(\'[data-testid="chat-row"], [data-testid="folder"]\')');
    if (inList) stops.push(await page.evaluate<string>("document.activeElement?.getAttribute('title') ?? document.activeElement?.textContent ?? ''"));
    else if (stops.length > 0) break;
  }
  return stops;
}

/** Sends a message with Enter, whatever the UI's language. */
async function sendMessage(page: Page, text: string): Promise<void> {
  const input = page.locator('#chat-input');
  await input.fill(text);
  await input.press('Enter');
}

// Functions run in the page are mostly written as strings (this project's test code has no DOM types).

/** An element as the page function below sees it (this project's test code has no DOM types). */
interface PageElement {
  parentElement: PageElement | null;
}
/** The product of an element's and its ancestors' opacity: 0 is invisible however "visible" it is. */
const shownOpacity = (el: PageElement) => {
  const style = (globalThis as unknown as { getComputedStyle(e: PageElement): { opacity: string } }).getComputedStyle;
  let opacity = 1;
  for (let at: PageElement | null = el; at; at = at.parentElement) opacity *= Number(style(at).opacity);
  return opacity;
};

test('a finished answer is announced once to screen readers, in short; nothing is announced while it streams', async ({ page, server, admin }) => {
  await ready(page, server, admin);
  const text = 'Brew green tea at **80 °C** for two minutes, then pour it at once. '.repeat(6).trim();
  openai.reply((body) => (isTask(body) ? { text: '{"title": "Tea"}' } : { text, chunks: 12, delayMs: 400 }));
  const announcer = page.getByTestId('answer-announcer');
  await expect(announcer).toHaveAttribute('aria-live', 'polite');
  await sendMessage(page, 'How do I brew green tea?');
  const answer = page.getByTestId('message-assistant').last();
  // Read in one go in the page: the answer shows words and still streams, and the region is silent.
  let midStream: { said: string | null } | undefined;
  await expect
    .poll(async () => {
      const seen = await page.evaluate<{ streaming: boolean; said: string | null }>(`(() => {
        const node = [...document.querySelectorAll('[data-testid="message-assistant"]')].at(-1);
        const streaming = node?.getAttribute('aria-busy') === 'true' && !!node.textContent?.includes('Brew green tea');
        return { streaming, said: document.querySelector('[data-testid="answer-announcer"]')?.textContent ?? null };
      })()`);
      if (seen.streaming) midStream = { said: seen.said };
      return midStream !== undefined;
    })
    .toBe(true);
  expect(midStream).toEqual({ said: '' });
  await expect(answer).toHaveAttribute('aria-busy', 'false');
  await expect(announcer).toHaveText('The answer from fake-gpt is ready.');
  // Said once: the page holds the answer's words only in the thread.
  await expect(page.getByText('Brew green tea at 80 °C for two minutes')).toHaveCount(1);
  await expect(page.locator('.chat-page [aria-live="polite"]')).toHaveCount(1);
  // The thread itself stays quiet (the region speaks for it).
  await expect(page.getByRole('log')).toHaveAttribute('aria-live', 'off');
});

test('the sidebar chat list is one tab stop; arrow keys move between chats, Shift+F10 opens a chat’s menu, Enter opens it', async ({ page, server, admin }) => {
  const api = server.as(admin.token);
  const titles = ['Quarterly report outline', 'Team lunch ideas', 'Printer on the second floor'];
  for (const title of titles) expect((await api.post('/api/v1/chats/new', { title })).status).toBe(200);
  await ready(page, server, admin);
  const rows = page.getByTestId('chat-row');
  await expect(rows).toHaveCount(3);

  const stops = await sidebarTabStops(page);
  expect(stops).toHaveLength(1);

  // The newest chat is first; down and up move between the rows.
  await page.keyboard.press('Shift+Tab');
  const focusedTitle = () => page.evaluate<string | null>("document.activeElement?.getAttribute('title')");
  expect(await focusedTitle()).toBe(stops[0]);
  await page.keyboard.press('ArrowDown');
  const second = await focusedTitle();
  expect(second).not.toBe(stops[0]);
  expect(titles).toContain(second);
  await page.keyboard.press('End');
  const last = await focusedTitle();
  await page.keyboard.press('ArrowUp');
  expect(await focusedTitle()).toBe(second);
  await page.keyboard.press('ArrowDown');
  expect(await focusedTitle()).toBe(last);

  // The row's actions: Shift+F10 opens its menu (focus on the first entry), Escape brings the focus back.
  await page.keyboard.press('Shift+F10');
  const menu = page.getByRole('menu', { name: `Actions for ${last}` });
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('menuitem').first()).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem').nth(1)).toBeFocused();
  await snap(page, 'sidebar-row-menu-keyboard');
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  expect(await focusedTitle()).toBe(last);

  // Tab leaves the list from any row, and comes back to the row last focused.
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  expect(await focusedTitle()).toBe(last);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/c\/[\w-]+$/);
  await expect(page.getByTestId('chat-row').filter({ hasText: last! })).toHaveClass(/active/);
});

test('folders share the chat list’s one tab stop: arrows reach them, Right opens and Left closes one, Shift+F10 opens its actions', async ({ page, server, admin }) => {
  const api = server.as(admin.token);
  const folder = (await api.post('/api/v1/folders/', { name: 'Quarterly reports' })).body as { id: string };
  const inside = (await api.post('/api/v1/chats/new', { title: 'Q3 figures' })).body as { id: string };
  await api.post(`/api/v1/chats/${inside.id}/folder`, { folder_id: folder.id });
  await api.post('/api/v1/chats/new', { title: 'Team lunch ideas' });
  await ready(page, server, admin);
  const toggle = page.getByTestId('folder').getByRole('button', { name: 'Quarterly reports', exact: true });
  await expect(toggle).toBeVisible();

  // One stop for folders and chats together.
  expect(await sidebarTabStops(page)).toHaveLength(1);
  await page.keyboard.press('Shift+Tab');
  await expect(toggle).toBeFocused();

  // Right opens the folder and shows its chat, Left closes it again; Down moves on to the chats.
  const expanded = async () => (await api.get('/api/v1/folders/')).body.find((f: { id: string }) => f.id === folder.id).is_expanded as boolean;
  if (await expanded()) {
    await page.keyboard.press('ArrowLeft');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  }
  await page.keyboard.press('ArrowRight');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByTestId('chat-row').filter({ hasText: 'Q3 figures' })).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('chat-row').filter({ hasText: 'Q3 figures' }).getByRole('link')).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(toggle).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByTestId('chat-row').filter({ hasText: 'Q3 figures' })).toHaveCount(0);

  await page.keyboard.press('Shift+F10');
  const menu = page.getByRole('menu', { name: 'Actions for folder Quarterly reports' });
  await expect(menu.getByRole('menuitem').first()).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem').nth(1)).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(toggle).toBeFocused();
});

test('العربية: the chat row menu opens from the keyboard and is named in Arabic', async ({ page, server, admin }) => {
  const api = server.as(admin.token);
  for (const title of ['خطة الاجتماع', 'أفكار الغداء']) await api.post('/api/v1/chats/new', { title });
  await ready(page, server, admin, 'ar');
  await page.getByTestId('chat-row').first().getByRole('link').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Shift+F10');
  await expect(page.getByRole('menu', { name: /أفكار الغداء|خطة الاجتماع/ })).toBeVisible();
  await snap(page, 'i18n-ar-sidebar-row-menu-keyboard');
});

test('the version switch of an edited message is always shown and reachable with the keyboard', async ({ page, server, admin }) => {
  await ready(page, server, admin);
  openai.reply((body) => (isTask(body) ? { text: '{"title": "Trains"}' } : { text: `About: ${lastUser(body)}` }));
  await sendMessage(page, 'When does the first train leave?');
  await expect(page.getByTestId('message-assistant').last()).toContainText('About: When does the first train leave?');
  const question = page.getByTestId('message-user').first();
  await question.hover();
  await question.getByRole('button', { name: 'Edit message' }).click();
  await question.getByLabel('Edit message').fill('When does the last train leave?');
  await question.getByRole('button', { name: 'Save & send' }).click();
  await expect(page.getByTestId('message-assistant').last()).toContainText('About: When does the last train leave?');

  // The pointer is elsewhere: the switch under the question is still there to see.
  await page.mouse.move(5, 400);
  await page.getByLabel('Send a message').focus();
  const counter = page.getByTestId('message-user').first().getByText('2/2');
  await expect(counter).toBeVisible();
  expect(await counter.evaluate(shownOpacity)).toBe(1);
  const previous = page.getByTestId('message-user').first().getByRole('button', { name: 'Previous version' });
  expect(await previous.evaluate(shownOpacity)).toBe(1);
  await snap(page, 'chat-version-switch-shown');

  // Keyboard: Tab reaches the switch; Enter shows the first version.
  await previous.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('message-user').first()).toContainText('When does the first train leave?');
  await expect(page.getByTestId('message-user').first().getByText('1/2')).toBeVisible();
});

test('a failed answer offers retry, regenerate and copying the error; nothing to rate or read aloud', async ({ page, context, server, admin }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await ready(page, server, admin);
  openai.reply((body) => (isTask(body) ? { text: '{"title": "Weather"}' } : { status: 500, error: 'The model is overloaded' }));
  await sendMessage(page, 'Will it rain tomorrow?');
  const answer = page.getByTestId('message-assistant').last();
  await expect(answer.getByRole('alert')).toContainText('The model is overloaded');
  await expect(answer.getByRole('button', { name: 'Retry' })).toBeVisible();
  await expect(answer.getByRole('button', { name: 'Regenerate' })).toBeVisible();
  await expect(answer.getByRole('button', { name: 'Good answer' })).toHaveCount(0);
  await expect(answer.getByRole('button', { name: 'Bad answer' })).toHaveCount(0);
  await expect(answer.getByRole('button', { name: 'Read aloud' })).toHaveCount(0);
  await expect(answer.getByRole('button', { name: 'Copy as Markdown' })).toHaveCount(0);
  await answer.getByRole('button', { name: 'Copy the error' }).click();
  expect(await page.evaluate<string>('navigator.clipboard.readText()')).toContain('The model is overloaded');
  await snap(page, 'chat-failed-answer-actions');

  // Regenerate asks again, and a good answer has its usual actions.
  openai.reply((body) => (isTask(body) ? { text: '{"title": "Weather"}' } : { text: 'Light rain is expected after noon.' }));
  await answer.getByRole('button', { name: 'Regenerate' }).click();
  const again = page.getByTestId('message-assistant').last();
  await expect(again).toContainText('Light rain is expected');
  await expect(again.getByRole('button', { name: 'Good answer' })).toBeVisible();
});

test('rating: 👍/👎 opens the reasons first; Save sends one request with the rating, the chips and the comment', async ({ page, server, admin }) => {
  await ready(page, server, admin);
  openai.reply((body) => (isTask(body) ? { text: '{"title": "Capital"}' } : { text: 'The capital of Australia is Sydney.' }));
  await sendMessage(page, 'What is the capital of Australia?');
  const answer = page.getByTestId('message-assistant').last();
  await expect(answer).toContainText('Sydney');
  const sent: { rating: number; reason?: string }[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/rating')) sent.push(request.postDataJSON());
  });

  await answer.getByRole('button', { name: 'Bad answer' }).click();
  const why = page.getByRole('dialog', { name: 'Tell us more (optional)' });
  await expect(why).toBeVisible();
  await why.getByRole('button', { name: 'Wrong facts' }).click();
  await expect(why.getByRole('button', { name: 'Wrong facts' })).toHaveAttribute('aria-pressed', 'true');
  await why.getByRole('button', { name: 'Incomplete' }).click();
  await why.getByLabel('What was good or wrong?').fill('The capital is Canberra.');
  await snap(page, 'chat-rating-reasons');
  expect(sent).toEqual([]);
  await why.getByRole('button', { name: 'Save' }).click();
  await expect(why).toHaveCount(0);
  await expect.poll(() => sent.length).toBe(1);
  expect(sent[0]).toEqual({ rating: -1, reason: 'Wrong facts; Incomplete; The capital is Canberra.' });
  await expect(answer.getByRole('button', { name: 'Bad answer' })).toHaveAttribute('aria-pressed', 'true');
  const chatId = new URL(page.url()).pathname.split('/').at(-1)!;
  expect((await server.as(admin.token).get(`/api/v1/chats/${chatId}/ratings`)).body).toEqual([expect.objectContaining({ rating: -1, reason: 'Wrong facts; Incomplete; The capital is Canberra.' })]);

  // Changing to 👍 and closing the box with a chip chosen saves once too; Escape saves nothing.
  await answer.getByRole('button', { name: 'Good answer' }).click();
  await why.getByRole('button', { name: 'Accurate' }).click();
  await page.keyboard.press('Escape');
  await expect(why).toHaveCount(0);
  await answer.getByRole('button', { name: 'Good answer' }).click();
  await why.getByRole('button', { name: 'Helpful' }).click();
  await page.locator('#chat-input').click();
  await expect(why).toHaveCount(0);
  await expect.poll(() => sent.length).toBe(2);
  expect(sent[1]).toEqual({ rating: 1, reason: 'Helpful' });
  await expect(answer.getByRole('button', { name: 'Good answer' })).toHaveAttribute('aria-pressed', 'true');
});

test('العربية: the rating reasons and a failed answer’s actions, right to left', async ({ page, server, admin }) => {
  await ready(page, server, admin, 'ar');
  openai.replyOnce({ status: 500, error: 'The model is overloaded' });
  openai.reply((body) => (isTask(body) ? { text: '{"title": "عاصمة"}' } : { text: 'عاصمة أستراليا هي سيدني.' }));
  await sendMessage(page, 'ما عاصمة أستراليا؟');
  const answer = page.getByTestId('message-assistant').last();
  await expect(answer.getByRole('alert')).toBeVisible();
  await snap(page, 'i18n-ar-chat-failed-answer-actions');
  await answer.locator('.msg-actions button').last().click();
  await expect(page.getByTestId('message-assistant').last()).toContainText('سيدني');
  await page.getByTestId('message-assistant').last().locator('.rate button').nth(1).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.getByRole('dialog').locator('.chip').first().click();
  await snap(page, 'i18n-ar-chat-rating-reasons');
});

test('files dropped anywhere in the chat are attached to the message, and the page stays', async ({ page, server, admin }) => {
  await ready(page, server, admin);
  openai.reply((body) => (isTask(body) ? { text: '{"title": "Notes"}' } : { text: 'Noted.' }));
  await sendMessage(page, 'Hello');
  await expect(page.getByTestId('message-assistant').last()).toContainText('Noted.');
  const url = page.url();
  const dropOn = (selector: string, name: string) =>
    page.evaluate<{ over: boolean; drop: boolean }>(`(() => {
      const target = document.querySelector(${JSON.stringify(selector)});
      const data = new DataTransfer();
      data.items.add(new File(['Meeting notes: budget approved.'], ${JSON.stringify(name)}, { type: 'text/plain' }));
      const over = new DragEvent('dragover', { bubbles: true, cancelable: true, dataTransfer: data });
      target.dispatchEvent(over);
      const drop = new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: data });
      target.dispatchEvent(drop);
      // A drop whose default is not prevented is opened by the browser in the tab.
      return { over: over.defaultPrevented, drop: drop.defaultPrevented };
    })()`);
  expect(await dropOn('[data-testid="message-assistant"]', 'notes.txt')).toEqual({ over: true, drop: true });
  await expect(page.getByTestId('attachment').filter({ hasText: 'notes.txt' })).toBeVisible();
  expect(await dropOn('.chat-head', 'minutes.txt')).toEqual({ over: true, drop: true });
  await expect(page.getByTestId('attachment').filter({ hasText: 'minutes.txt' })).toBeVisible();
  await expect(page.getByTestId('attachment').getByRole('progressbar')).toHaveCount(0);
  expect(page.url()).toBe(url);
  await snap(page, 'chat-dropped-files');
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  /** Boxes of the message action buttons in view that the scroll button overlaps. */
  async function covered(page: Page, jump: Locator): Promise<string[]> {
    const box = await jump.boundingBox();
    if (!box) return [];
    return page.evaluate<string[]>(`(() => {
      const b = ${JSON.stringify(box)};
      const hits = [];
      // Only what the thread shows: buttons scrolled out of its box are hidden by it.
      const view = document.querySelector('.thread-scroll').getBoundingClientRect();
      for (const el of document.querySelectorAll('.msg-actions button, .versions button')) {
        const r = el.getBoundingClientRect();
        const top = Math.max(r.top, view.top);
        const bottom = Math.min(r.bottom, view.bottom);
        if (bottom <= top) continue;
        if (r.left < b.x + b.width && b.x < r.right && top < b.y + b.height && b.y < bottom) hits.push(el.getAttribute('aria-label') + ' at ' + Math.round(r.top));
      }
      return hits;
    })()`);
  }

  for (const language of ['en', 'ar']) {
    test(`${language}: the scroll-to-latest button never covers a message's actions`, async ({ page, server, admin }) => {
      await ready(page, server, admin, language);
      const long = Array.from({ length: 14 }, (_, i) => `Step ${i + 1}: keep the kettle below a boil.`).join('\n\n');
      openai.reply((body) => (isTask(body) ? { text: '{"title": "Kettle"}' } : { text: long }));
      for (const q of ['How do I brew tea?', 'And coffee?']) {
        await sendMessage(page, q);
        await expect(page.getByTestId('message-assistant').last()).toContainText('Step 14');
      }
      const jump = page.locator('.jump-latest');
      let checked = 0;
      for (let up = 90; up <= 900; up += 15) {
        // Measured from the end each time (the saved chat read back after the answer may re-measure the thread).
        await expect
          .poll(async () => {
            await page.evaluate(`(() => { const el = document.querySelector('.thread-scroll'); el.scrollTop = el.scrollHeight - el.clientHeight - ${up}; })()`);
            return jump.isVisible();
          })
          .toBe(true);
        expect(await covered(page, jump), `scrolled up ${up} px`).toEqual([]);
        checked += 1;
        if (up === 150) await snap(page, `${language === 'ar' ? 'i18n-ar-' : ''}phone-jump-to-latest`);
      }
      expect(checked).toBeGreaterThan(40);
      await jump.click();
      await expect(jump).toHaveCount(0);
    });
  }
});
