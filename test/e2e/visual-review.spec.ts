import type { Locator, Page } from '@playwright/test';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import type { TestUser } from '../helpers/builders';
import type { TestServer } from '../helpers/server';
import { expect, signIn, snap, test, sendMessage } from './fixtures';

// The chat as a person sees it in light and dark themes and at phone width: what the screenshot
// review found wrong stays fixed, checked by geometry and computed colours (not pixel snapshots).

/* The browser globals the page functions below use (the e2e tsconfig has no DOM library). */
interface El {
  parentElement: El | null;
  textContent: string | null;
  querySelector(selector: string): El | null;
  querySelectorAll(selector: string): Iterable<El>;
  closest(selector: string): El | null;
}
interface Style {
  backgroundColor: string;
  color: string;
  content: string;
  display: string;
  outlineStyle: string;
  outlineWidth: string;
  boxShadow: string;
}
declare const document: {
  documentElement: { scrollWidth: number };
  activeElement: El | null;
  querySelectorAll(selector: string): Iterable<El>;
  createRange(): { selectNodeContents(node: El): void; getClientRects(): Iterable<{ top: number }> };
  elementFromPoint(x: number, y: number): El | null;
};
declare const window: { innerWidth: number };
declare function getComputedStyle(el: El, pseudo?: string): Style;

let openai: FakeOpenAI;
test.beforeEach(async () => {
  openai = await startFakeOpenAI({ models: ['fake-gpt'] });
});
test.afterEach(async () => {
  await openai.close();
});

const RICH = [
  '## Plan for the week',
  '',
  'Here is a **summary** with `inline code` and a link to https://example.com/a/very/long/path/that/keeps/going/without/a/break.',
  '',
  '```typescript',
  'export function area(radius: number): number { return Math.PI * radius * radius; } // a long line that scrolls',
  '```',
  '',
  '| Day | Task | Owner | Status | Notes |',
  '|-----|------|-------|--------|-------|',
  '| Monday | Write the report | Ada | done | reviewed by the whole team |',
  '| Tuesday | Send invoices | Grace | pending | waiting for numbers |',
  '',
  'The area is $$A = \\pi r^2$$ as shown.',
].join('\n');

const PHONE = { width: 390, height: 844 };

async function setUp(page: Page, server: TestServer, admin: TestUser) {
  const api = server.as(admin.token);
  await api.post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
  const folder = (await api.post('/api/v1/folders/', { name: 'Work projects with a long folder name' })).body as { id: string };
  for (let i = 0; i < 4; i += 1) {
    const chat = (await api.post('/api/v1/chats/new', { title: i === 0 ? 'A very long chat title that the sidebar has to cut short' : `Chat number ${i}` })).body as { id: string };
    if (i === 0) await api.post(`/api/v1/chats/${chat.id}/folder`, { folder_id: folder.id });
  }
  await signIn(page, admin.email, admin.password);
  await expect(page.getByRole('button', { name: 'Model: fake-gpt' })).toBeVisible();
}

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not rendered');
  return b;
}

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

/** Each button at least `min` px both ways, and no two overlapping. */
async function tapTargets(buttons: Locator, min: number) {
  const boxes = [];
  for (const b of await buttons.all()) if (await b.isVisible()) boxes.push({ name: (await b.getAttribute('aria-label')) ?? '', ...(await box(b)) });
  expect(boxes.length).toBeGreaterThan(0);
  for (const b of boxes) {
    expect(b.width, `${b.name} width`).toBeGreaterThanOrEqual(min);
    expect(b.height, `${b.name} height`).toBeGreaterThanOrEqual(min);
  }
  for (const [i, a] of boxes.entries()) {
    for (const b of boxes.slice(i + 1)) {
      const overlap = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x) > 0.5 && Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) > 0.5;
      expect(overlap, `${a.name} overlaps ${b.name}`).toBe(false);
    }
  }
}

/** WCAG contrast of each element's text colour (or its `::pseudo` element's) against what is painted behind it (ancestors' backgrounds composited). */
async function contrasts(page: Page, selectors: string[]): Promise<Array<{ selector: string; ratio: number }>> {
  return page.evaluate((list) => {
    const parse = (c: string): [number, number, number, number] => {
      const m = c.match(/[\d.]+/g)?.map(Number) ?? [0, 0, 0, 0];
      return [m[0]!, m[1]!, m[2]!, m.length > 3 ? m[3]! : 1];
    };
    const over = (top: number[], under: number[]) => [0, 1, 2].map((i) => top[i]! * top[3]! + under[i]! * (1 - top[3]!));
    const luminance = (rgb: number[]) => {
      const [r, g, b] = rgb.map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const background = (el: El): number[] => {
      const layers: number[][] = [];
      for (let e: El | null = el; e; e = e.parentElement) {
        const c = parse(getComputedStyle(e).backgroundColor);
        if (c[3] > 0) layers.push(c);
        if (c[3] >= 1) break;
      }
      let painted = [255, 255, 255];
      for (const layer of layers.reverse()) painted = over(layer, painted);
      return painted;
    };
    return list.flatMap((entry) => {
      const [selector, pseudo] = entry.split('::') as [string, string | undefined];
      return [...document.querySelectorAll(selector)].slice(0, 3).map((el) => {
        const style = getComputedStyle(el, pseudo ? `::${pseudo}` : undefined);
        const fg = over(parse(style.color), background(el));
        const [a, b] = [luminance(fg), luminance(background(el))].sort((x, y) => y - x);
        return { selector: entry, ratio: Math.round(((a! + 0.05) / (b! + 0.05)) * 100) / 100 };
      });
    });
  }, selectors);
}

/** Opens the composer's Tools and Knowledge menus with a file attached: each opens above the composer, over none of it, inside the window. */
async function menusClearOfComposer(page: Page, viewport: { width: number; height: number }) {
  await page.getByTestId('file-input').setInputFiles({ name: 'quarterly-report-with-a-long-file-name.txt', mimeType: 'text/plain', buffer: Buffer.from('Numbers.') });
  await expect(page.getByTestId('attachment').getByRole('progressbar')).toHaveCount(0);
  const composer = await box(page.locator('.composer'));
  for (const [button, menu] of [
    ['Tools', 'Tools for the next messages'],
    ['Use knowledge', null],
  ] as const) {
    await page.getByRole('button', { name: button }).click();
    const open = menu ? page.getByRole('group', { name: menu }) : page.locator('.knowledge-menu');
    await expect(open).toBeVisible();
    const m = await box(open);
    expect(m.y + m.height, `${button} menu ends above the composer`).toBeLessThanOrEqual(composer.y);
    expect(m.y).toBeGreaterThanOrEqual(0);
    expect(m.x).toBeGreaterThanOrEqual(0);
    expect(m.x + m.width).toBeLessThanOrEqual(viewport.width);
    await page.keyboard.press('Escape');
    await expect(open).toBeHidden();
  }
}

const TEXTS = [
  '.markdown p',
  '.markdown td',
  '.markdown th',
  '.markdown code',
  '.bubble-user',
  '.sidebar-group-label',
  '.chat-item a',
  '.library-actions .btn',
  '.sidebar .btn.show-archived',
  '.source-chip',
  '.model-button',
];

for (const scheme of ['dark', 'light'] as const) {
  test(`${scheme} theme: every text of the chat and sidebar has a contrast of at least 4.5 against its background`, async ({ page, server, admin }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await setUp(page, server, admin);
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
    openai.reply({ text: RICH });
    await page.getByTestId('file-input').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Numbers for the week.') });
    await expect(page.getByTestId('attachment').getByRole('progressbar')).toHaveCount(0);
    await sendMessage(page, 'Plan my week please');
    await expect(page.getByRole('button', { name: 'Send message' })).toBeVisible();
    await expect(page.getByTestId('message-assistant').last().locator('table')).toBeVisible();
    await snap(page, `review-${scheme}-answer`);
    const found = await contrasts(page, TEXTS);
    expect(new Set(found.map((f) => f.selector))).toEqual(new Set(TEXTS));
    for (const f of found) expect(f.ratio, f.selector).toBeGreaterThanOrEqual(4.5);
    // The composer's placeholder ("Send a message") is read before anything is typed.
    const [placeholder] = await contrasts(page, ['textarea::placeholder']);
    expect(placeholder!.ratio, 'placeholder').toBeGreaterThanOrEqual(4.5);

    // A keyboard user sees where focus is on the composer's buttons.
    await page.getByRole('button', { name: 'Attach files' }).focus();
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const s = getComputedStyle(document.activeElement!);
      return { outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0, ring: s.boxShadow !== 'none' };
    });
    expect(focused.outline || focused.ring).toBe(true);
  });
}

test('the Tools and Knowledge menus open above the composer, not over its attachments and text', async ({ page, server, admin }) => {
  await setUp(page, server, admin);
  await menusClearOfComposer(page, { width: 1280, height: 800 });
  await page.getByRole('button', { name: 'Tools' }).click();
  await snap(page, 'review-light-tools-menu');
});

test('while an answer streams, its caret ends the last line of text instead of sitting on a line of its own', async ({ page, server, admin }) => {
  await setUp(page, server, admin);
  openai.reply({ pieces: ['A first paragraph.\n\nAnd the second one is still ', 'arriving ', 'slowly ', 'word ', 'by ', 'word ', 'by ', 'word.'], delayMs: 400 });
  await sendMessage(page, 'Tell me slowly');
  const answer = page.getByTestId('message-assistant').last();
  await expect(answer).toContainText('still arriving');
  const caret = await answer.evaluate((el) => {
    const last = el.querySelector('.markdown > p:last-child')!;
    const after = getComputedStyle(last, '::after');
    const separate = el.querySelector('.caret');
    return { inline: after.content !== 'none' && after.display === 'inline-block', separateShown: separate !== null && getComputedStyle(separate).display !== 'none' };
  });
  expect(caret).toEqual({ inline: true, separateShown: false });
  await snap(page, 'review-light-streaming');
  await expect(page.getByRole('button', { name: 'Send message' })).toBeVisible({ timeout: 20_000 });
  expect(await answer.evaluate((el) => getComputedStyle(el.querySelector('.markdown > p:last-child')!, '::after').content)).toBe('none');
});

test('while an answer streams, bold whose closing ** has not arrived shows as bold, not as its markers', async ({ page, server, admin }) => {
  await setUp(page, server, admin);
  openai.reply({ pieces: ['Here is **the important', ' part** of it.'], delayMs: 2500 });
  await sendMessage(page, 'Stream some bold');
  const answer = page.getByTestId('message-assistant').last();
  // The first piece is in and the second has not come yet: the answer is still streaming.
  await expect(answer).toContainText('the important');
  await expect(page.getByRole('button', { name: 'Stop generating' })).toBeVisible();
  // Asked until it holds (the formatter may paint a frame after the text): it can only hold while the second piece is still on its way.
  await expect(answer.locator('.markdown')).toHaveText('Here is the important');
  await expect(answer.locator('.markdown strong')).toHaveText('the important');
  await snap(page, 'review-light-streaming-bold');
  await expect(answer.locator('.markdown')).toHaveText('Here is the important part of it.', { timeout: 20_000 });
  await expect(answer.locator('.markdown strong')).toHaveText('the important part');
});

test('the empty chat lays its four suggestions out evenly, two by two, never three and one', async ({ page, server, admin }) => {
  await setUp(page, server, admin);
  const cards = page.locator('.suggestion');
  await expect(cards).toHaveCount(4);
  const boxes = await Promise.all((await cards.all()).map(box));
  const rows = new Map<number, number>();
  for (const b of boxes) rows.set(Math.round(b.y), (rows.get(Math.round(b.y)) ?? 0) + 1);
  expect([...rows.values()]).toEqual([2, 2]);
  expect(new Set(boxes.map((b) => Math.round(b.width))).size).toBe(1);
  await snap(page, 'review-light-suggestions');
});

test.describe('phone', () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true, colorScheme: 'dark' });

  test('a rich answer fits the screen: tables scroll in their box with whole words, the composer is whole, buttons are 40 px and apart', async ({ page, server, admin }) => {
    await setUp(page, server, admin);
    await tapTargets(page.locator('.composer-bar button'), 40);
    openai.reply({ text: RICH });
    await sendMessage(page, 'Plan my week please');
    // The first answer is whole (the new chat is saved and named) before the second question.
    await expect(page.getByTestId('message-assistant').first()).toContainText('as shown.', { timeout: 20_000 });
    await expect(page.getByRole('button', { name: 'Send message' })).toBeVisible();
    await sendMessage(page, 'And the next week?');
    await expect(page.getByTestId('message-assistant')).toHaveCount(2);
    await expect(page.getByRole('button', { name: 'Send message' })).toBeVisible();
    await noSidewaysScroll(page);

    const answer = page.getByTestId('message-assistant').first();
    const table = answer.locator('.md-table');
    await table.scrollIntoViewIfNeeded();
    await snap(page, 'review-phone-dark-answer-table');
    const tableBox = await box(table);
    expect(tableBox.x).toBeGreaterThanOrEqual(0);
    expect(tableBox.x + tableBox.width).toBeLessThanOrEqual(PHONE.width);
    expect(await table.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    // A one-word cell ("Monday", "Owner") is one line: words are never split across lines.
    const split = await table.evaluate((el) =>
      [...el.querySelectorAll('th, td')]
        .filter((cell) => !/\s/.test(cell.textContent!.trim()))
        .filter((cell) => {
          const range = document.createRange();
          range.selectNodeContents(cell);
          return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1;
        })
        .map((cell) => cell.textContent),
    );
    expect(split).toEqual([]);

    // Message actions: visible without hover on a touch screen (also on the older answer), 40 px each, apart.
    await answer.scrollIntoViewIfNeeded();
    await expect(answer.locator('.msg-actions')).toHaveCSS('opacity', '1');
    await tapTargets(answer.locator('.msg-actions > button, .msg-actions > * > button'), 40);

    const composer = await box(page.locator('.composer'));
    expect(composer.x).toBeGreaterThanOrEqual(0);
    expect(composer.y).toBeGreaterThanOrEqual(0);
    expect(composer.x + composer.width).toBeLessThanOrEqual(PHONE.width);
    expect(composer.y + composer.height).toBeLessThanOrEqual(PHONE.height);
    await tapTargets(page.locator('.composer-bar button'), 40);
  });

  test('the Tools and Knowledge menus open above the composer and inside the screen', async ({ page, server, admin }) => {
    await setUp(page, server, admin);
    await menusClearOfComposer(page, PHONE);
  });

  test('the drawer\'s buttons are 40 px tap targets; a chat row\'s menu answers taps around its icon', async ({ page, server, admin }) => {
    await setUp(page, server, admin);
    await page.getByRole('button', { name: 'Main menu' }).click();
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    await expect(nav).toBeInViewport();
    await snap(page, 'review-phone-dark-drawer');
    await tapTargets(nav.locator('.library-actions .btn, .btn.show-archived'), 40);
    await noSidewaysScroll(page);
    const row = nav.locator('.chat-item').filter({ hasText: 'Chat number 2' });
    const menu = row.locator('.icon-btn');
    const b = await box(menu);
    for (const [x, y] of [
      [b.x - 10, b.y + b.height / 2],
      [b.x + b.width / 2, b.y - 5],
      [b.x + b.width / 2, b.y + b.height + 5],
    ] as const) {
      const hit = await page.evaluate(([px, py]) => document.elementFromPoint(px!, py!)?.closest('.icon-btn') !== null, [x, y]);
      expect(hit, `tap at ${x},${y}`).toBe(true);
    }
    // The folder's long name is cut with an ellipsis inside the drawer, not pushed out of it.
    const folder = nav.getByText('Work projects with a long folder name');
    const navBox = await box(nav);
    const folderBox = await box(folder);
    expect(folderBox.x + folderBox.width).toBeLessThanOrEqual(navBox.x + navBox.width);
  });
});
