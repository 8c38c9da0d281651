import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { expect, sendMessage, signIn, snap, test } from './fixtures';

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

test('a task list in an answer shows a checkbox per item and no bullet beside it, with no node attribute', async ({ page, server, admin }) => {
  await server.as(admin.token).post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
  openai.reply({ text: 'Your plan:\n\n- [x] Buy flour\n- [ ] Feed the starter\n  - [ ] Twice a day\n- A plain item\n\n1. [ ] Numbered task\n\nLoose:\n\n- [x] First\n\n- [ ] Second\n', chunks: 5 });
  await signIn(page, admin.email, admin.password);
  await sendMessage(page, 'Make me a checklist');
  const answer = page.getByTestId('message-assistant').last();
  const items = answer.locator('li').filter({ has: page.locator('input[type="checkbox"]') });
  await expect(items).toHaveCount(6);
  await expect(answer.locator('input[type="checkbox"]:checked')).toHaveCount(2);
  for (const item of await answer.locator('li').all()) {
    const task = (await item.locator(':scope > input[type="checkbox"], :scope > p > input[type="checkbox"]').count()) > 0;
    const marker = await item.evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el).listStyleType);
    const text = (await item.innerText()).split('\n')[0];
    // A task item has its checkbox and nothing else as its marker; an ordinary item keeps its bullet.
    expect(marker, text).toBe(task ? 'none' : 'disc');
  }
  // A sub-task sits further in than its parent task.
  const left = async (text: string) => (await answer.locator('li', { hasText: text }).last().locator('input').first().boundingBox())!.x;
  expect(await left('Twice a day')).toBeGreaterThan((await left('Feed the starter')) + 10);
  await expect(answer.locator('input[type="checkbox"]').first()).toBeDisabled();
  expect(await answer.locator('[node]').count()).toBe(0);
  await snap(page, 'chat-task-list');
});
