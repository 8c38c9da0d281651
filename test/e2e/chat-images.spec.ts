import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { rgbPng } from '../fixtures/png';
import { expect, signIn, snap, test } from './fixtures';

// Issue 27, item 5: attached images reach models that see; thumbnails; a plain word when the model cannot see.

let openai: FakeOpenAI;
test.beforeEach(async () => {
  openai = await startFakeOpenAI({ models: ['fake-gpt'] });
});
test.afterEach(async () => {
  await openai.close();
});

/** A 96×64 PNG: an orange-to-blue gradient, a picture a person recognises in a screenshot. */
const gradientPng = () => rgbPng(96, 64, (x) => [255 - x * 2, 120, 40 + x * 2]);

test('an attached image shows as a thumbnail, reaches the model as an image, and stays in the sent message', async ({ page, server, admin }) => {
  await server.as(admin.token).post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
  await signIn(page, admin.email, admin.password);
  await expect(page.getByRole('button', { name: 'Model: fake-gpt' })).toBeVisible();
  const png = gradientPng();
  await page.getByTestId('file-input').setInputFiles({ name: 'sunset.png', mimeType: 'image/png', buffer: png });
  await expect(page.getByTestId('attachment-thumb')).toBeVisible();
  await expect(page.getByTestId('attachment').getByRole('progressbar')).toHaveCount(0);
  await expect(page.getByTestId('no-vision')).toHaveCount(0);
  await snap(page, 'chat-image-composer');
  openai.reply({ text: 'An orange and blue gradient.' });
  await page.getByRole('textbox', { name: 'Send a message' }).fill('What is in this picture?');
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByTestId('message-assistant').last()).toContainText('orange and blue gradient');
  const sent = openai.chats().find((c) => JSON.stringify(c.body.messages).includes('What is in this picture?'))!.body.messages!;
  expect(sent.at(-1)?.content).toEqual([
    { type: 'text', text: 'What is in this picture?' },
    { type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } },
  ]);
  const thumb = page.getByTestId('message-user').getByTestId('file-thumb').locator('img');
  await expect(thumb).toBeVisible();
  expect(await thumb.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(96);
  await page.reload();
  await expect(page.getByTestId('message-user').getByTestId('file-thumb').locator('img')).toBeVisible();
  await expect.poll(() => page.getByTestId('message-user').getByTestId('file-thumb').locator('img').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(96);
  await snap(page, 'chat-image-sent');
});

test('a model that cannot see images is named before sending, in English and in German', async ({ page, server, admin }) => {
  await server.as(admin.token).post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
  const blind = await server.as(admin.token).post('/api/v1/models/create', { id: 'text-only', name: 'Text Only', base_model_id: 'fake-gpt', params: {}, meta: { capabilities: { vision: false } }, access_control: null });
  expect(blind.status).toBe(200);
  await signIn(page, admin.email, admin.password);
  await page.getByRole('button', { name: /^Model:/ }).click();
  await page.getByRole('option', { name: /Text Only/ }).click();
  await expect(page.getByRole('button', { name: 'Model: Text Only' })).toBeVisible();
  await page.getByTestId('file-input').setInputFiles({ name: 'sunset.png', mimeType: 'image/png', buffer: gradientPng() });
  await expect(page.getByTestId('no-vision')).toHaveText('Text Only cannot see images: the pictures attached here will not reach it. Choose a model that can see images to ask about them.');
  await snap(page, 'chat-image-no-vision');

  await server.as(admin.token).post('/api/v1/users/user/settings/update', { language: 'de' });
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await page.getByTestId('file-input').setInputFiles({ name: 'sunset.png', mimeType: 'image/png', buffer: gradientPng() });
  await expect(page.getByTestId('no-vision')).toContainText('Text Only kann keine Bilder sehen');
  await snap(page, 'chat-image-no-vision-de');
});
