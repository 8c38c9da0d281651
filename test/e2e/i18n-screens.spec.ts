import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import type { TestUser } from '../helpers/builders';
import type { TestServer } from '../helpers/server';
import { catalog, englishOnScreen } from './catalog-texts';
import { expect, SCREENSHOTS, snap, test } from './fixtures';

/**
 * Every language on the main screens, as a person sees them: the chat with an answer, the
 * sidebar, the composer and its toolbar, Settings, the admin tabs, the workspace lists, notes
 * and a channel, at desktop and phone sizes. Screenshots go to test-results/screenshots for
 * review; the test fails when a label or button is wider than its box (its text overflows or is
 * cut), a button's label wraps, a placeholder is cut or a screen scrolls sideways.
 * PARLEY_I18N_LANGS=all runs every language here, PARLEY_I18N_LANGS=ko,zh-TW a few.
 */

const ALL = ['es', 'fr', 'pt-BR', 'it', 'nl', 'pl', 'tr', 'ru', 'uk', 'ja', 'ko', 'zh-CN', 'zh-TW', 'vi'];
/** By default the languages whose texts run longest (fr, it), widest (Cyrillic, Polish, Vietnamese's stacked marks) and CJK. */
const WIDEST = ['fr', 'it', 'pl', 'ru', 'uk', 'vi', 'ja'];
const chosen = process.env.PARLEY_I18N_LANGS;
const LANGS = chosen === 'all' ? ALL : (chosen?.split(',').filter(Boolean) ?? WIDEST);

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** The English text of each of the language's texts. */
function sourceTexts(code: string): Record<string, string> {
  const en = catalog('en');
  return Object.fromEntries(Object.entries(catalog(code)).map(([key, text]) => [text, en[key] ?? text]));
}

/** English texts (three letters or more, no placeholders) the language words differently and uses nowhere itself (Italian "Note" is notes). */
function englishOnly(code: string): string[] {
  const en = catalog('en');
  const other = catalog(code);
  const own = new Set(Object.values(other));
  return Object.entries(en)
    .filter(([key, text]) => !text.includes('{{') && other[key] !== text && !own.has(text) && /\p{L}{3}/u.test(text))
    .map(([, text]) => text);
}

let openai: FakeOpenAI;
test.beforeEach(async () => {
  openai = await startFakeOpenAI({ models: ['fake-gpt'] });
});
test.afterEach(async () => {
  await openai.close();
});

interface Made {
  chatId: string;
  noteId: string;
  channelId: string;
}

/** A workspace with something on every main screen: a chat with a question and an answer, a folder, a note, a channel, a knowledge base, a prompt. */
async function furnish(server: TestServer, admin: TestUser, code: string): Promise<Made> {
  const api = server.as(admin.token);
  await api.post('/api/v1/auths/admin/config', { ENABLE_CHANNELS: true });
  await api.post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
  const folder = (await api.post('/api/v1/folders/', { name: 'Quarterly reports' })).body as { id: string };
  const chatId = (await api.post('/api/v1/chats/new', { title: 'Q3 revenue' })).body.id as string;
  await api.post(`/api/v1/chats/${chatId}/folder`, { folder_id: folder.id });
  await api.post(`/api/v1/chats/${chatId}/messages`, { role: 'user', content: 'How did the quarter go?' });
  await api.post(`/api/v1/chats/${chatId}/messages`, {
    role: 'assistant',
    content: 'Revenue grew **12%** to 1,234,567.\n\n| Region | Sales |\n|---|---|\n| North | 450,000 |\n| South | 784,567 |\n\n```python\nprint("done")\n```',
  });
  for (let i = 1; i <= 3; i += 1) await api.post('/api/v1/chats/new', { title: `Chat ${i}` });
  const noteId = (await api.post('/api/v1/notes/create', { title: 'Offsite plan', data: { content: { md: '# Agenda\n- budget' } } })).body.id as string;
  const channelId = (await api.post('/api/v1/channels/create', { name: 'general', description: 'Office news' })).body.id as string;
  expect(channelId).toBeTruthy();
  await api.post(`/api/v1/channels/${channelId}/messages/post`, { content: 'Welcome to the team channel.' });
  await api.post('/api/v1/knowledge/create', { name: 'Handbook', description: 'Office rules' });
  await api.post('/api/v1/prompts/create', { command: 'summary', title: 'Summary', content: 'Summarise: {{CLIPBOARD}}' });
  expect((await api.post('/api/v1/users/user/settings/update', { language: code })).status).toBe(200);
  return { chatId, noteId, channelId };
}

/** Signs in through the (English) form; the account's language takes over once signed in. */
async function signInAs(page: Page, admin: TestUser, code: string): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', code);
  await expect(page.locator('.composer-input')).toBeVisible();
}

/**
 * Labels, buttons, tabs and headings whose text is wider than their box (scrollWidth past
 * clientWidth: the text spills out or is cut, with or without an ellipsis), and the page's
 * sideways scroll. Names, titles and other user data (cut on purpose) are not labels.
 */
async function overflowing(page: Page, english: Record<string, string>): Promise<string[]> {
  return page.evaluate((englishOf) => {
    // Runs in the page (DOM types are not part of this Node project).
    const { document, getComputedStyle, innerWidth, NodeFilter } = globalThis as any;
    const out: string[] = [];
    const LABELS = 'button, .btn, label, th, [role="tab"], [role="switch"], legend, summary, h1, h2, h3, h4, .badge, .chip, .tab, nav a, select';
    for (const el of Array.from(document.querySelectorAll(LABELS)) as any[]) {
      if (el.closest('.sr-only, [aria-hidden="true"], .markdown, .chat-item, .cm-editor, .swagger-host, [data-user-text]')) continue;
      if (el.getClientRects().length === 0) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || ['auto', 'scroll'].includes(style.overflowX)) continue;
      if (!el.textContent?.trim()) continue;
      if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
        const cls = typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
        out.push(`${el.tagName.toLowerCase()}${cls} "${el.textContent.trim().slice(0, 50)}" ${el.scrollWidth}>${el.clientWidth}`);
      }
    }
    // Any other box whose content spills out of it sideways (a row of buttons wider than its menu):
    // the innermost such box, as its ancestors spill only because of it.
    const SKIP = '.sr-only, [aria-hidden="true"], .markdown, .chat-item, .cm-editor, .swagger-host, pre, code, table, [data-user-text]';
    const spilling = (Array.from(document.querySelectorAll('body *')) as any[]).filter((el) => {
      if (el.scrollWidth <= el.clientWidth + 1 || el.clientWidth === 0 || el.closest(SKIP) || el.getClientRects().length === 0) return false;
      const style = getComputedStyle(el);
      return !['auto', 'scroll'].includes(style.overflowX) && style.textOverflow !== 'ellipsis' && style.display !== 'inline';
    });
    for (const el of spilling) {
      if (spilling.some((other) => other !== el && el.contains(other))) continue;
      const cls = typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
      out.push(`${el.tagName.toLowerCase()}${cls} spills "${(el.textContent ?? '').trim().slice(0, 50)}" ${el.scrollWidth}>${el.clientWidth}`);
    }
    // A button's or tab's label broken over two lines.
    for (const el of Array.from(document.querySelectorAll('.btn, [role="tab"], .tab, .segmented button, .menu-item')) as any[]) {
      if (el.closest('.sr-only, [aria-hidden="true"], .markdown, .chat-item, .suggestion') || el.getClientRects().length === 0) continue;
      const rects: any[] = [];
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const range = document.createRange();
        range.selectNodeContents(node);
        rects.push(...(Array.from(range.getClientRects()) as any[]).filter((r) => r.width > 0 && r.height > 0));
      }
      rects.sort((a, b) => a.top - b.top);
      let lines = 0;
      let lastTop = -Infinity;
      for (const r of rects) {
        if (r.top > lastTop + r.height / 2) lines += 1;
        if (r.top > lastTop + r.height / 2) lastTop = r.top;
      }
      if (lines > 1) out.push(`${el.tagName.toLowerCase()} "${el.textContent.trim().slice(0, 50)}" wraps onto ${lines} lines`);
    }
    // A placeholder is cut without a scrollWidth to show it: measure its text in the input's font.
    const context = document.createElement('canvas').getContext('2d');
    for (const el of Array.from(document.querySelectorAll('input[placeholder], textarea[placeholder]')) as any[]) {
      if (el.value || el.getClientRects().length === 0 || el.tagName === 'TEXTAREA') continue;
      const style = getComputedStyle(el);
      context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = el.clientWidth - parseFloat(style.paddingInlineStart) - parseFloat(style.paddingInlineEnd);
      const needed = context.measureText(el.placeholder).width;
      // An example cut in English too (a long URL) is the layout's matter, not the language's.
      const source = englishOf[el.placeholder];
      if (source !== undefined && context.measureText(source).width > room + 1) continue;
      if (needed > room + 1) out.push(`placeholder "${el.placeholder.slice(0, 50)}" ${Math.round(needed)}>${Math.round(room)}`);
    }
    const wide = document.documentElement.scrollWidth - innerWidth;
    if (wide > 0) out.push(`page scrolls sideways by ${wide}px`);
    return [...new Set(out)];
  }, english);
}

const DESKTOP_SCREENS = (m: Made) => [
  `/c/${m.chatId}`,
  '/',
  '/account',
  '/workspace/models',
  '/workspace/models/new',
  '/workspace/knowledge',
  '/workspace/tools',
  '/workspace/prompts',
  '/notes',
  `/notes/${m.noteId}`,
  `/channels/${m.channelId}`,
  '/admin/users',
  '/admin/groups',
  '/admin/permissions',
  '/admin/auth',
  '/admin/connections',
  '/admin/local-models',
  '/admin/audio',
  '/admin/tool-servers',
  '/admin/retrieval',
  '/admin/web-search',
  '/admin/tasks',
  '/admin/code',
  '/admin/images',
  '/admin/lan',
  '/admin/api-usage',
];

const PHONE_SCREENS = (m: Made) => [`/c/${m.chatId}`, '/', '/account', '/workspace/models', '/workspace/knowledge', `/notes/${m.noteId}`, `/channels/${m.channelId}`, '/admin/users', '/admin/permissions'];

const shotName = (code: string, size: string, route: string) => `lang-${code}-${size}${route.replace(/\/[0-9a-f-]{20,}/g, '-one').replace(/[/:]+/g, '-').replace(/-$/, '') || `-home`}`;

for (const code of LANGS) {
  test(`${code}: the main screens show no English, no label wider than its box, no sideways scroll (desktop and phone)`, async ({ page, server, admin }) => {
    test.setTimeout(240_000);
    const made = await furnish(server, admin, code);
    const english = englishOnly(code);
    const sources = sourceTexts(code);
    const problems: string[] = [];
    const english_left: string[] = [];
    await page.setViewportSize(DESKTOP);
    await signInAs(page, admin, code);

    const visit = async (size: string, route: string) => {
      await page.goto(route);
      await expect(page.locator('html')).toHaveAttribute('lang', code);
      await expect(page.locator('.spinner')).toHaveCount(0, { timeout: 15_000 });
      await expect(page.locator('main').first()).toBeVisible();
      await page.waitForTimeout(150);
      for (const found of await overflowing(page, sources)) problems.push(`${size} ${route} ${found}`);
      for (const found of await englishOnScreen(page, english)) english_left.push(`${size} ${route} ${found}`);
      await snap(page, shotName(code, size, route));
    };

    for (const route of DESKTOP_SCREENS(made)) await visit('desktop', route);
    // The composer's Tools menu and a chat's menu in the sidebar.
    await page.goto(`/c/${made.chatId}`);
    await page.locator('.composer-bar .icon-btn').nth(1).click();
    await page.waitForTimeout(150);
    for (const found of await overflowing(page, sources)) problems.push(`desktop composer-menu ${found}`);
    await snap(page, `lang-${code}-desktop-composer-menu`);
    await page.keyboard.press('Escape');
    await page.locator('.user-button').click();
    for (const found of await overflowing(page, sources)) problems.push(`desktop user-menu ${found}`);
    await snap(page, `lang-${code}-desktop-user-menu`);
    await page.keyboard.press('Escape');

    // Dialogs: adding a user, a channel's settings.
    const dialog = async (route: string, open: string, shot: string) => {
      await page.goto(route);
      await page.locator(open).first().click();
      await expect(page.getByRole('dialog')).toBeVisible();
      for (const found of await overflowing(page, sources)) problems.push(`desktop ${shot} ${found}`);
      await snap(page, `lang-${code}-desktop-${shot}`);
      await page.keyboard.press('Escape');
    };
    await dialog('/admin/users', '.btn.primary', 'add-user-dialog');
    await dialog(`/channels/${made.channelId}`, 'header:has(.channel-hash) .icon-btn >> nth=-1', 'channel-settings-dialog');

    await page.setViewportSize(PHONE);
    for (const route of PHONE_SCREENS(made)) await visit('phone', route);
    await page.goto(`/c/${made.chatId}`);
    await page.locator('button.icon-btn.mobile-only:visible').first().click();
    await page.waitForTimeout(300);
    for (const found of await overflowing(page, sources)) problems.push(`phone drawer ${found}`);
    await snap(page, `lang-${code}-phone-drawer`);

    mkdirSync(path.join(SCREENSHOTS, '..', 'i18n-screens'), { recursive: true });
    writeFileSync(path.join(SCREENSHOTS, '..', 'i18n-screens', `${code}.json`), JSON.stringify({ problems, english_left }, null, 2));
    expect(problems).toEqual([]);
    expect(english_left).toEqual([]);
  });
}
