import { gzipSync } from 'node:zlib';
import { startFakeOpenAI } from '../fixtures/fake-openai';
import { expect, signIn, test } from './fixtures';

test('opening a chat with a formatted answer loads under 300 KB of gzipped JavaScript', async ({ page, server, admin }) => {
  const openai = await startFakeOpenAI({ models: ['fake-gpt'] });
  try {
    await server.as(admin.token).post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
    openai.reply({ text: '## Plan\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```python\nprint("hi")\n```' });
    await signIn(page, admin.email, admin.password);
    await page.getByLabel('Send a message').fill('Make a plan');
    await page.getByLabel('Send a message').press('Enter');
    await expect(page.getByTestId('message-assistant').locator('table')).toBeVisible();

    const scripts = new Map<string, Buffer>();
    page.on('response', async (res) => {
      if (res.url().endsWith('.js')) scripts.set(res.url(), await res.body());
    });
    await page.reload({ waitUntil: 'networkidle' });
    await expect(page.getByTestId('message-assistant').locator('.hljs-built_in, .hljs-string').first()).toBeVisible();
    const gzipped = [...scripts.values()].reduce((sum, body) => sum + gzipSync(body, { level: 9 }).length, 0);
    console.log(`chat view first load: ${scripts.size} scripts, ${(gzipped / 1024).toFixed(1)} KB gzipped`);
    expect(gzipped).toBeLessThan(300 * 1024);
  } finally {
    await openai.close();
  }
});
