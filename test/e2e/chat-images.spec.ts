import { deflateSync } from 'node:zlib';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { expect, signIn, snap, test } from './fixtures';

// Issue 27, item 5: attached images reach models that see; thumbnails; a plain word when the model cannot see.

let openai: FakeOpenAI;
test.beforeEach(async () => {
  openai = await startFakeOpenAI({ models: ['fake-gpt'] });
});
test.afterEach(async () => {
  await openai.close();
});

const CRC = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
/** A 96×64 PNG: an orange-to-blue gradient, a picture a person recognises in a screenshot. */
function gradientPng(): Buffer {
  const width = 96;
  const height = 64;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows: number[] = [];
  for (let y = 0; y < height; y += 1) {
    rows.push(0);
    for (let x = 0; x < width; x += 1) rows.push(255 - (x * 2), 120, 40 + x * 2);
  }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.from(rows))), chunk('IEND', Buffer.alloc(0))]);
}

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
