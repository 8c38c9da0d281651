import type { Browser, Page } from '@playwright/test';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { buildUser, type TestUser } from '../helpers/builders';
import type { TestServer } from '../helpers/server';
import { expect, snap, test } from './fixtures';

/* The browser globals the page functions below use (the e2e tsconfig has no DOM library). */
declare const window: { __pwned?: number };
declare const localStorage: { setItem(key: string, value: string): void };
declare const document: { documentElement: { scrollWidth: number; clientWidth: number } };

/** The page is no wider than the screen. */
async function fitsTheScreen(page: Page) {
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, view: document.documentElement.clientWidth }));
  expect(widths.page).toBeLessThanOrEqual(widths.view);
}

let openai: FakeOpenAI;
test.beforeEach(async () => {
  openai = await startFakeOpenAI({ models: ['gpt-fake'] });
});
test.afterEach(async () => {
  await openai.close();
});

/** A phone's screen, held upright. */
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** A browser of its own for `user`, signed in (the stored session), in `language`, on a desktop screen unless told. */
async function openAs(browser: Browser, server: TestServer, user: TestUser, language = 'en', screen: { viewport: { width: number; height: number }; isMobile?: boolean; hasTouch?: boolean } = { viewport: { width: 1280, height: 800 } }): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url, ...screen });
  await context.addInitScript(
    ([token, lang]) => {
      localStorage.setItem('parley.token', token);
      localStorage.setItem('parley.language', lang);
    },
    [user.token, language] as const,
  );
  const page = await context.newPage();
  await page.goto('/');
  return page;
}

async function setUp(server: TestServer, admin: TestUser) {
  const as = server.as(admin.token);
  await as.post('/api/v1/auths/admin/config', { ENABLE_CHANNELS: true });
  await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
  await as.post('/api/v1/tasks/config/update', { ENABLE_TITLE_GENERATION: false, ENABLE_TAGS_GENERATION: false, ENABLE_FOLLOW_UP_GENERATION: false });
  return buildUser(server, admin, 'user', 'Bob Builder');
}

/**
 * A channel where the admin posts `opening`, Bob answers `answer` (which the admin celebrates with 🎉) and
 * replies `reply` in its thread; answers the channel's id.
 */
async function conversation(server: TestServer, admin: TestUser, bob: TestUser, channel: { name: string; description: string }, texts: { opening: string; answer: string; reply: string }): Promise<string> {
  const asAdmin = server.as(admin.token);
  const asBob = server.as(bob.token);
  const id = (await asAdmin.post('/api/v1/channels/create', channel)).body.id as string;
  await asAdmin.post(`/api/v1/channels/${id}/messages/post`, { content: texts.opening });
  const answer = (await asBob.post(`/api/v1/channels/${id}/messages/post`, { content: texts.answer })).body.id as string;
  await asAdmin.post(`/api/v1/channels/${id}/messages/${answer}/reactions/add`, { name: '🎉' });
  await asBob.post(`/api/v1/channels/${id}/messages/post`, { content: texts.reply, parent_id: answer });
  return id;
}

test('two people in two browsers talk in a channel: messages, edits, reactions, unread counts and an @model answer arrive live', async ({ browser, server, admin }) => {
  const bob = await setUp(server, admin);
  const ada = await openAs(browser, server, admin);
  const channels = ada.getByRole('region', { name: 'Channels' });
  await channels.getByRole('button', { name: 'New channel' }).click();
  const dialog = ada.getByRole('dialog', { name: 'New channel' });
  await dialog.getByLabel('Name').fill('Launch');
  await dialog.getByLabel('Description').fill('Everything about the launch');
  await dialog.getByRole('button', { name: 'Create channel' }).click();
  await expect(ada).toHaveURL(/\/channels\/[\w-]+$/);
  await expect(ada.getByRole('heading', { name: /launch/ })).toBeVisible();

  const bobPage = await openAs(browser, server, bob);
  await bobPage.getByRole('region', { name: 'Channels' }).getByRole('link', { name: /launch/ }).click();
  const adaBox = ada.getByLabel('Message #launch');
  const bobBox = bobPage.getByLabel('Message #launch');
  await expect(bobBox).toBeVisible();

  // A message reaches the other browser live.
  await adaBox.fill('Hello **Bob**, the launch is on Friday');
  await adaBox.press('Enter');
  const bobSees = bobPage.getByTestId('channel-message').filter({ hasText: 'the launch is on Friday' });
  await expect(bobSees).toBeVisible();
  await expect(bobSees.locator('strong')).toHaveText('Bob');

  // Bob reacts; Ada sees the reaction.
  await bobSees.hover();
  await bobSees.getByRole('button', { name: 'Add a reaction' }).click();
  await bobPage.getByRole('menuitem', { name: 'React with 👍' }).click();
  const adaMessage = ada.getByTestId('channel-message').filter({ hasText: 'the launch is on Friday' });
  await expect(adaMessage.getByRole('button', { name: /👍\s*1/ })).toBeVisible();

  // Ada edits; Bob sees the new text.
  await adaMessage.hover();
  await adaMessage.getByRole('button', { name: 'Edit the message' }).click();
  await ada.getByLabel('Edit the message').fill('Hello **Bob**, the launch moved to Monday');
  await ada.getByRole('button', { name: 'Save' }).click();
  await expect(bobPage.getByTestId('channel-message').filter({ hasText: 'the launch moved to Monday' })).toBeVisible();

  // Bob typing shows on Ada's side.
  await bobBox.fill('Thanks');
  await expect(ada.getByText('Bob Builder is typing…')).toBeVisible();
  await bobBox.press('Enter');
  await expect(ada.getByTestId('channel-message').filter({ hasText: 'Thanks' })).toBeVisible();

  // Away from the channel, Bob sees an unread count that goes when he opens it again.
  await bobPage.getByRole('button', { name: 'New chat' }).click();
  await adaBox.fill('Are you there?');
  await adaBox.press('Enter');
  const bobLink = bobPage.getByRole('region', { name: 'Channels' }).getByRole('link', { name: /launch/ });
  await expect(bobLink.getByLabel('1 unread message')).toBeVisible();
  await bobLink.click();
  await expect(bobLink.getByLabel(/unread/)).toHaveCount(0);

  // @model: the answer streams to both browsers.
  openai.reply({ pieces: ['The launch ', 'checklist: ', '**test**, ', '**ship**, ', '**celebrate**.'], delayMs: 250 });
  await adaBox.fill('@gpt-fake what is the launch checklist?');
  await adaBox.press('Enter');
  const answerOnBob = bobPage.getByTestId('channel-message').filter({ hasText: 'asked by Ada Admin' });
  // Part of the answer shows before the whole of it.
  await expect(answerOnBob).toContainText('The launch checklist');
  await expect(answerOnBob).not.toContainText('celebrate');
  await expect(answerOnBob).toContainText('test, ship, celebrate.');
  await expect(ada.getByTestId('channel-message').filter({ hasText: 'asked by Ada Admin' })).toContainText('test, ship, celebrate.');
  await expect(answerOnBob.locator('strong')).toHaveText(['test', 'ship', 'celebrate']);
  await snap(ada, 'channel-conversation-en');

  // A mention of Bob shows him a notice.
  await adaBox.fill('@Bob Builder can you check the checklist?');
  await adaBox.press('Enter');
  await bobPage.getByRole('button', { name: 'New chat' }).click();
  await adaBox.fill('@Bob Builder ping');
  await adaBox.press('Enter');
  await expect(bobPage.getByRole('status').filter({ hasText: 'Ada Admin mentioned you in #launch' })).toBeVisible();

  // Threads: Bob replies in a thread; Ada sees the reply count and the reply.
  await bobLink.click();
  const thanks = bobPage.getByTestId('channel-message').filter({ hasText: 'Are you there?' });
  await thanks.hover();
  await thanks.getByRole('button', { name: 'Reply in a thread' }).click();
  const thread = bobPage.getByRole('complementary', { name: 'Thread' });
  await thread.getByLabel('Reply in the thread').fill('Yes, here');
  await thread.getByLabel('Reply in the thread').press('Enter');
  await expect(ada.getByTestId('channel-message').filter({ hasText: 'Are you there?' }).getByRole('button', { name: '1 reply' })).toBeVisible();
  await snap(bobPage, 'channel-thread-en');
  await bobPage.context().close();
  await ada.context().close();
});

test('hostile messages are shown as text: no script runs, no handler is kept, deep nesting is refused', async ({ browser, server, admin }) => {
  const bob = await setUp(server, admin);
  const channel = (await server.as(admin.token).post('/api/v1/channels/create', { name: 'hostile' })).body.id as string;
  const post = (content: string) => server.as(bob.token).post(`/api/v1/channels/${channel}/messages/post`, { content });
  for (const content of [
    '<script>window.__pwned = 1</script>script above',
    '<img src="x" onerror="window.__pwned = 2">image above',
    '[click me](javascript:window.__pwned=3) link',
    '<iframe src="javascript:window.__pwned=4"></iframe>frame above',
    '<a href="#" onclick="window.__pwned=5" style="position:fixed;inset:0">cover</a>',
    `${'x'.repeat(15_000)} long line`,
  ]) expect((await post(content)).status).toBe(200);
  expect((await post(`${'>'.repeat(500)} deep`)).status).toBe(422);
  expect((await post(`${'['.repeat(2_000)}x`)).status).toBe(422);

  const page = await openAs(browser, server, admin);
  await page.goto(`/channels/${channel}`);
  await expect(page.getByTestId('channel-message').filter({ hasText: 'long line' })).toBeVisible();
  await page.getByText('click me').click({ noWaitAfter: true }).catch(() => undefined);
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
  const list = page.locator('.channel-list');
  await expect(list.locator('script, iframe')).toHaveCount(0);
  await expect(list.locator('.markdown').first()).toBeVisible();
  await expect(list.locator('.markdown [onerror], .markdown [onclick], .markdown [style], .markdown a[href^="javascript"]')).toHaveCount(0);
  // The long line wraps inside the page instead of widening it.
  await fitsTheScreen(page);
  await page.context().close();
});

test('the channels look right in German', async ({ browser, server, admin }) => {
  const bob = await setUp(server, admin);
  const channel = await conversation(server, admin, bob, { name: 'produkt', description: 'Alles zum Produktstart' }, { opening: 'Guten Morgen! Die **Checkliste** steht im Wiki.', answer: 'Danke, ich schaue sie mir an.', reply: 'Passt so.' });
  const page = await openAs(browser, server, admin, 'de');
  await page.goto(`/channels/${channel}`);
  await expect(page.getByRole('region', { name: 'Kanäle' })).toBeVisible();
  await expect(page.getByLabel('Nachricht an #produkt')).toBeVisible();
  await expect(page.getByRole('button', { name: '1 Antwort' })).toBeVisible();
  await expect(page.getByText('2 Mitglieder')).toBeVisible();
  // Markdown is rendered (once its part of the UI has loaded), the same in every language.
  await expect(page.getByTestId('channel-message').locator('.markdown strong', { hasText: 'Checkliste' })).toBeVisible();
  await snap(page, 'channel-conversation-de');
  await page.getByRole('button', { name: 'Kanaleinstellungen' }).click();
  await expect(page.getByRole('dialog', { name: 'Kanaleinstellungen' })).toBeVisible();
  await snap(page, 'channel-settings-de');
  await page.context().close();
});

test('on a phone the channel fills the screen, its actions stay reachable and a thread covers it until closed', async ({ browser, server, admin }) => {
  const bob = await setUp(server, admin);
  const channel = await conversation(
    server,
    admin,
    bob,
    { name: 'launch', description: 'Everything about the launch, from the first draft to the day it ships' },
    { opening: 'The **checklist** is in the wiki: https://wiki.example.invalid/launch/checklist-for-the-first-release', answer: 'Thanks, I will read it this afternoon.', reply: 'Done, two notes added.' },
  );

  const page = await openAs(browser, server, admin, 'en', PHONE);
  await page.goto(`/channels/${channel}`);
  const box = page.getByLabel('Message #launch');
  await expect(box).toBeVisible();
  await fitsTheScreen(page);
  expect((await box.boundingBox())!.width).toBeGreaterThan(250);
  await expect(page.getByRole('navigation', { name: 'Main menu' })).not.toBeInViewport();
  await snap(page, 'channel-phone-en');

  // No hover on a phone: a message's actions are shown with it.
  const asked = page.getByTestId('channel-message').filter({ hasText: 'Thanks, I will read it' });
  await expect(asked.getByRole('button', { name: 'Reply in a thread' })).toBeInViewport();
  await asked.getByRole('button', { name: '1 reply' }).tap();
  const thread = page.getByRole('complementary', { name: 'Thread' });
  await expect(thread.getByText('Done, two notes added.')).toBeInViewport();
  await expect(thread.getByLabel('Reply in the thread')).toBeInViewport();
  await fitsTheScreen(page);
  await snap(page, 'channel-thread-phone-en');
  await thread.getByRole('button', { name: 'Close the thread' }).tap();
  await expect(thread).toHaveCount(0);
  await expect(box).toBeInViewport();
  await page.context().close();
});

test('the Channels entry appears only while channels are on: an admin turns them on in the settings', async ({ browser, server, admin }) => {
  const bob = await buildUser(server, admin, 'user', 'Bob Builder');
  const ada = await openAs(browser, server, admin);
  const bobPage = await openAs(browser, server, bob);
  await expect(ada.getByRole('button', { name: 'New chat' })).toBeVisible();
  await expect(ada.getByRole('region', { name: 'Channels' })).toHaveCount(0);
  await expect(bobPage.getByRole('button', { name: 'New chat' })).toBeVisible();
  await expect(bobPage.getByRole('region', { name: 'Channels' })).toHaveCount(0);

  await ada.goto('/admin/auth');
  await ada.getByRole('switch', { name: /^Channels/ }).check();
  await ada.getByRole('button', { name: 'Save' }).click();
  await expect(ada.getByRole('region', { name: 'Channels' })).toBeVisible();
  // Bob may create channels (features.channels), so the entry shows for him too once he reloads.
  await bobPage.reload();
  await expect(bobPage.getByRole('region', { name: 'Channels' }).getByRole('button', { name: 'New channel' })).toBeVisible();
  await ada.context().close();
  await bobPage.context().close();
});
