import { startFakeOpenAI, type FakeOpenAI, lastUserText as lastUser } from '../fixtures/fake-openai';
import { expect, signIn, snap, test } from './fixtures';

// Tools turned on in the composer: their calls show as steps, stay with the chat, and the choice lasts.

let openai: FakeOpenAI;
test.beforeEach(async () => {
  openai = await startFakeOpenAI({ models: ['fake-gpt'] });
});
test.afterEach(async () => {
  await openai.close();
});

const TOOL = 'class Tools:\n    def add(self, a: int, b: int) -> int:\n        """Add two whole numbers."""\n        return a + b\n';

test('tools turned on in a new chat stay on; each call shows as a step with arguments and result, kept after a reload', async ({ page, server, admin }) => {
  const as = server.as(admin.token);
  await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
  const created = await as.post('/api/v1/tools/create', { name: 'Calculator', type: 'python', description: 'Sums', config: { content: TOOL } });
  expect(created.status).toBe(200);
  openai.reply((body) => (lastUser(body).includes('### Task') ? { text: '{"title": "Sums"}' } : { text: `Noted: ${lastUser(body)}` }));

  await signIn(page, admin.email, admin.password);
  await expect(page.getByRole('button', { name: 'Model: fake-gpt' })).toBeVisible();
  await page.getByRole('button', { name: 'Tools', exact: true }).click();
  await page.getByRole('group', { name: 'Tools for the next messages' }).getByLabel('Calculator').check();
  await page.keyboard.press('Escape');

  openai.replyOnce({ text: '', tool_calls: [{ name: 'add', arguments: { a: 40, b: 2 } }] });
  openai.replyOnce({ text: 'The sum is 42.' });
  const input = page.getByLabel('Send a message');
  await input.fill('What is 40 + 2?');
  await input.press('Enter');
  const answer = page.getByTestId('message-assistant').last();
  await expect(answer).toContainText('The sum is 42.', { timeout: 30_000 });
  const step = answer.getByTestId('tool-step');
  await expect(step).toHaveCount(1);
  await expect(step.locator('summary')).toContainText('add');
  await step.locator('summary').click();
  await expect(step).toContainText('"a": 40');
  await expect(step).toContainText('42');
  await snap(page, 'chat-tool-step');

  // The first message moved the new chat to its own address; the tool is still on for the next one.
  await expect(page).toHaveURL(/\/c\//);
  await expect(page.getByRole('button', { name: 'Tools', exact: true })).toContainText('1');
  await input.fill('And again?');
  await input.press('Enter');
  await expect(page.getByTestId('message-assistant').last()).toContainText('Noted: And again?');
  const second = openai.chats().find((r) => lastUser(r.body) === 'And again?');
  expect((second?.body.tools as Array<{ function: { name: string } }> | undefined)?.map((t) => t.function.name)).toEqual(['add']);

  await page.reload();
  const saved = page.getByTestId('message-assistant').first();
  await expect(saved).toContainText('The sum is 42.');
  await expect(saved.getByTestId('tool-step')).toHaveCount(1);
  await saved.getByTestId('tool-step').locator('summary').click();
  await expect(saved.getByTestId('tool-step')).toContainText('"b": 2');
});
