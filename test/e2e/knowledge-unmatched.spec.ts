import { startFakeOpenAI, type ChatBody, type FakeOpenAI, lastUserText as lastUser } from '../fixtures/fake-openai';
import { expect, sendMessage, signIn, snap, test } from './fixtures';

// A knowledge base is never skipped in silence: when nothing in it matches, the answer says so.

let openai: FakeOpenAI;
test.beforeEach(async () => {
  openai = await startFakeOpenAI({ models: ['fake-gpt'] });
});
test.afterEach(async () => {
  await openai.close();
});

const systemText = (body: ChatBody | undefined) => (body?.messages ?? []).filter((m) => m.role === 'system').map((m) => String(m.content)).join('\n');

test('a knowledge base searched without a match is named under the answer, and the model is told', async ({ page, server, admin }) => {
  const as = server.as(admin.token);
  await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
  const base = (await as.post('/api/knowledge/create', { name: 'Falcon handbook', description: '' })).body.id as string;
  const form = new FormData();
  form.append('files', new Blob(['Project Falcon status report.\n\nThe launch code for Project Falcon is AZURE-7421.']), 'falcon.txt');
  const file = (await as.raw('POST', '/api/v1/chats/attachment/upload', form)).body[0].id as string;
  await as.post(`/api/knowledge/${base}/file/add`, { file_id: file });
  await expect.poll(async () => (await as.get(`/api/knowledge/${base}`)).body.files[0]?.status).toBe('completed');
  openai.reply((body) => ({ text: lastUser(body).includes('### Task') ? '[]' : 'Nothing in the handbook covers that; Canberra is the capital of Australia.' }));

  await signIn(page, admin.email, admin.password);
  // The page reads the saved chat again after the answer, and once more shortly after (title, follow-ups).
  let chatReads = 0;
  page.on('response', (r) => {
    if (r.request().method() === 'GET' && /\/api\/v1\/chats\/[^/]+$/.test(new URL(r.url()).pathname)) chatReads += 1;
  });
  await page.getByRole('button', { name: 'Use knowledge' }).click();
  await page.getByRole('group', { name: 'Knowledge for this message' }).getByLabel(/Falcon handbook/).check();
  await sendMessage(page, 'What is the capital city of Australia?');
  const answer = page.getByTestId('message-assistant').last();
  await expect(answer).toContainText('Canberra');
  await expect(answer.getByRole('note')).toHaveText('Searched Falcon handbook: no passage matched your question');
  // Still there once the answer is saved and the conversation read again, twice.
  await expect.poll(() => chatReads, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
  await expect(page.getByTestId('message-assistant').last().getByRole('note')).toHaveText('Searched Falcon handbook: no passage matched your question');
  const sent = openai.chats().find((r) => lastUser(r.body) === 'What is the capital city of Australia?');
  expect(systemText(sent?.body)).toContain('The knowledge base “Falcon handbook” was searched');
  await snap(page, 'chat-knowledge-unmatched');

  // A question the base answers: no such note.
  await page.getByRole('button', { name: 'Use knowledge' }).click();
  await page.getByRole('group', { name: 'Knowledge for this message' }).getByLabel(/Falcon handbook/).check();
  openai.reply((body) => ({ text: lastUser(body).includes('### Task') ? '[]' : 'The code is AZURE-7421 [1].' }));
  await sendMessage(page, 'What is the launch code for Project Falcon?');
  await expect(page.getByTestId('message-assistant').last()).toContainText('AZURE-7421');
  await expect(page.getByTestId('message-assistant').last().getByRole('note')).toHaveCount(0);
});
