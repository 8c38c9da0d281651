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
