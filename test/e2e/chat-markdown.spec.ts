import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { expect, sendMessage, signIn, test } from './fixtures';

// Issue 27, minors: react-markdown's `node` never lands on the page as `node="[object Object]"`.

let openai: FakeOpenAI;
test.beforeEach(async () => {
  openai = await startFakeOpenAI({ models: ['fake-gpt'] });
});
test.afterEach(async () => {
  await openai.close();
});

test('code blocks, links and tables in an answer carry no node="[object Object]" attribute', async ({ page, server, admin }) => {
  await server.as(admin.token).post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
  openai.reply({ text: 'Here:\n\n```js\nconst a = 1;\n```\n\nSee [the docs](https://example.com).\n\n| a | b |\n|---|---|\n| 1 | 2 |\n', chunks: 4 });
  await signIn(page, admin.email, admin.password);
  await sendMessage(page, 'Show me code');
  const answer = page.getByTestId('message-assistant').last();
  await expect(answer.locator('pre')).toContainText('const a = 1;');
  await expect(answer.locator('table')).toBeVisible();
  await expect(answer.getByRole('link', { name: 'the docs' })).toBeVisible();
  expect(await answer.locator('[node]').count()).toBe(0);
});
