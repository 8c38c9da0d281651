import { expect, signIn, snap, test } from './fixtures';

test('a 1,000-message chat opens at its end, keeps only a window of messages in the page, and scrolls through', async ({ page, server, admin }) => {
  test.setTimeout(120_000);
  const api = server.as(admin.token);
  const chat = (await api.post('/api/v1/chats/new', { title: 'Long discussion' })).body;
  for (let i = 1; i <= 1000; i += 1) {
    const res = await api.post(`/api/v1/chats/${chat.id}/messages`, { role: i % 2 ? 'user' : 'assistant', content: `Message number ${i}: ${i % 2 ? 'a question' : 'an answer with **some** text'}` });
    expect(res.status).toBe(200);
  }

  await signIn(page, admin.email, admin.password);
  await page.getByRole('link', { name: 'Long discussion' }).click();
  const messages = page.locator('[data-testid^="message-"]');
  // Opens at the newest message.
  await expect(page.getByText('Message number 1000:')).toBeVisible();
  const rendered = await messages.count();
  expect(rendered).toBeGreaterThan(0);
  expect(rendered).toBeLessThan(60);
  await snap(page, 'chat-long');

  // Scroll to the very top: the first message, and still a small window.
  const scroller = page.locator('.thread-scroll');
  await scroller.evaluate((el) => el.scrollTo({ top: 0 }));
  await expect(page.getByText('Message number 1:', { exact: false }).first()).toBeVisible();
  await expect(page.getByText('Message number 1000:')).toHaveCount(0);
  expect(await messages.count()).toBeLessThan(60);

  // Back to the end through the "jump to latest" button.
  await page.getByRole('button', { name: 'Jump to latest' }).click();
  await expect(page.getByText('Message number 1000:')).toBeVisible();
  expect(await messages.count()).toBeLessThan(60);
});

test('the sidebar keeps a window of a long chat list in the page and loads older chats while scrolling', async ({ page, server, admin }) => {
  const api = server.as(admin.token);
  for (let i = 1; i <= 150; i += 1) expect((await api.post('/api/v1/chats/new', { title: `Chat ${String(i).padStart(3, '0')}` })).status).toBe(200);
  await signIn(page, admin.email, admin.password);
  const chatLinks = page.locator('.sidebar-list a[href^="/c/"]');
  await expect(chatLinks.first()).toBeVisible();
  expect(await chatLinks.count()).toBeLessThan(60);
  // A chat's menu opens above the rows under it.
  const firstTitle = (await chatLinks.first().innerText()).trim();
  await page.getByRole('button', { name: `Actions for ${firstTitle}` }).click();
  await expect(page.getByRole('menuitem', { name: 'Rename' })).toBeVisible();
  await page.getByRole('menuitem', { name: 'Rename' }).click({ trial: true });
  await snap(page, 'sidebar-long-list');
  await page.getByRole('menuitem', { name: 'Pin' }).click();
  await expect(page.locator('.sidebar-list').getByText('Pinned', { exact: true })).toBeVisible();
  expect((await api.get('/api/v1/chats/pinned')).body.map((c: { title: string }) => c.title)).toEqual([firstTitle]);

  // Scrolling to the end loads the following pages (60 chats each) until the last one.
  const lastPage = page.waitForResponse((r) => r.url().includes('/api/v1/chats') && r.url().includes('page=3'));
  const list = page.locator('.sidebar-list');
  await expect(async () => {
    await list.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await page.waitForTimeout(100);
    await list.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await Promise.race([lastPage, page.waitForTimeout(500).then(() => Promise.reject(new Error('page 3 not loaded yet')))]);
  }).toPass({ timeout: 15_000 });
  expect(await chatLinks.count()).toBeLessThan(60);
  await page.getByLabel('Search chats').fill('Chat 001');
  await expect(chatLinks).toHaveCount(1);
  await expect(page.getByRole('link', { name: 'Chat 001' })).toBeVisible();
});
