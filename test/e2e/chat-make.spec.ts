import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { startFakeOpenAIImages } from '../fixtures/fake-image-engines';
import { startFakeOpenAI, type ChatBody, type FakeOpenAI } from '../fixtures/fake-openai';
import { expect, sendMessage, signIn, snap, test } from './fixtures';

const CHART_CODE = [
  'import matplotlib.pyplot as plt',
  "months = ['Jan', 'Feb', 'Mar', 'Apr']",
  'sales = [12, 19, 7, 23]',
  "plt.bar(months, sales, color='steelblue')",
  "plt.title('Sales per month')",
  "plt.ylabel('units')",
  'plt.show()',
  "print('total', sum(sales))",
].join('\n');

/** True when the message list holds a task prompt (the image prompt the task model writes). */
const isTask = (body: ChatBody) => JSON.stringify(body.messages ?? []).includes('### Task:');

async function useProvider(server: { as(token: string): { post(path: string, body: unknown): Promise<{ status: number }> } }, token: string, openai: FakeOpenAI) {
  expect((await server.as(token).post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} })).status).toBe(200);
}

/** Shows the UI in German from now on (the device's choice), as a German-speaking person has it. */
async function inGerman(page: Page): Promise<void> {
  await page.evaluate("localStorage.setItem('parley.language', 'de')");
  await page.reload();
}

test('the code interpreter turned on: the model runs Python and the person sees a chart, offline', async ({ page, server, admin }) => {
  const openai = await startFakeOpenAI({ models: ['fake-gpt'] });
  try {
    await useProvider(server, admin.token, openai);
    openai.reply((body) =>
      body.messages?.some((m) => m.role === 'tool') ? { text: 'The chart shows April as the best month (23 units); the total is 61.' } : { text: '', tool_calls: [{ id: 'call_chart', name: 'execute_python', arguments: { code: CHART_CODE } }] },
    );
    await signIn(page, admin.email, admin.password);
    const toggle = page.getByTestId('code-interpreter-toggle');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    await sendMessage(page, 'Plot these numbers: Jan 12, Feb 19, Mar 7, Apr 23');

    const step = page.getByTestId('code-step');
    await expect(step).toBeVisible({ timeout: 60_000 });
    const chart = step.getByTestId('step-picture').locator('img');
    await expect(chart).toBeVisible();
    await expect.poll(() => chart.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(100);
    await expect(page.getByTestId('message-assistant')).toContainText('April as the best month');
    expect(JSON.stringify(openai.chats()[0]!.body.tools)).toContain('execute_python');
    await snap(page, 'code-interpreter-chart');

    // The code and its output fold open.
    await step.getByText('Ran Python').click();
    await expect(step.locator('pre').first()).toContainText("plt.bar(months, sales, color='steelblue')");
    await expect(step).toContainText('total 61');
    await snap(page, 'code-interpreter-step-open');
    await inGerman(page);
    await expect(page.getByTestId('code-step').getByTestId('step-picture')).toBeVisible();
    await snap(page, 'code-interpreter-chart-de');
  } finally {
    await openai.close();
  }
});

test('a Python block in an answer runs with the Run button', async ({ page, server, admin }) => {
  const openai = await startFakeOpenAI({ models: ['fake-gpt'] });
  try {
    await useProvider(server, admin.token, openai);
    openai.reply({ text: 'Try this:\n\n```python\nprint(sum(range(101)))\n```' });
    await signIn(page, admin.email, admin.password);
    await sendMessage(page, 'Sum 0 to 100 in Python');
    await page.getByTestId('run-code').click();
    await expect(page.getByTestId('run-output')).toContainText('5050', { timeout: 60_000 });
    await snap(page, 'code-run-button');
  } finally {
    await openai.close();
  }
});

test('an HTML artifact opens in a sandboxed side panel that reaches neither Parley nor the network; versions compare; Mermaid draws inline', async ({ page, server, admin }) => {
  const openai = await startFakeOpenAI({ models: ['fake-gpt'] });
  let hits = 0;
  const lure = createServer((_req, res) => {
    hits += 1;
    res.end('x');
  });
  await new Promise<void>((resolve) => lure.listen(0, '127.0.0.1', resolve));
  const port = (lure.address() as AddressInfo).port;
  const page1 = [
    '<!doctype html><html><body>',
    '<h1 id="title">Hello artifact</h1>',
    `<img src="http://127.0.0.1:${port}/pixel.png" alt="">`,
    `<script>fetch('http://127.0.0.1:${port}/beacon').catch(() => {}); document.getElementById('title').dataset.ran = 'yes';</script>`,
    '</body></html>',
  ].join('\n');
  const page2 = page1.replace('Hello artifact', 'Hello again, revised');
  try {
    await useProvider(server, admin.token, openai);
    const first = `Here is the page:\n\n\`\`\`html\n${page1}\n\`\`\`\n\nAnd the flow:\n\n\`\`\`mermaid\ngraph TD\n  A[Start] --> B[Done]\n\`\`\``;
    const revised = `Revised:\n\n\`\`\`html\n${page2}\n\`\`\``;
    // Answers by the question (titles and follow-ups are asked in between).
    openai.reply((body) => {
      const last = JSON.stringify(body.messages?.at(-1)?.content ?? '');
      if (last.includes('Write a small HTML page')) return { text: first };
      if (last.includes('Change the title')) return { text: revised };
      return { text: '{"title": "A page"}' };
    });
    await signIn(page, admin.email, admin.password);
    await sendMessage(page, 'Write a small HTML page');
    await expect(page.getByTestId('mermaid-diagram')).toBeVisible({ timeout: 30_000 });
    await page.getByTestId('preview-artifact').first().click();

    const panel = page.getByTestId('artifact-panel');
    await expect(panel).toBeVisible();
    const frame = page.frameLocator('[data-testid="artifact-frame"]');
    await expect(frame.locator('#title')).toHaveText('Hello artifact');
    await expect(frame.locator('#title')).toHaveAttribute('data-ran', 'yes');
    const inside = page.frames().find((f) => f.url().endsWith('/artifact-frame'))!;
    // What a curious page would try from inside the preview (run in the frame, as its own script would).
    const attempts = await inside.evaluate(`(async () => {
      const out = {};
      try { await fetch('/api/v1/chats/'); out.api = 'open'; } catch { out.api = 'blocked'; }
      try { out.cookie = document.cookie === '' ? 'empty' : 'readable'; } catch { out.cookie = 'blocked'; }
      try { out.parent = String(window.parent.document.title); } catch { out.parent = 'blocked'; }
      try { localStorage.getItem('parley.token'); out.storage = 'open'; } catch { out.storage = 'blocked'; }
      return out;
    })()`);
    expect(attempts).toEqual({ api: 'blocked', cookie: 'blocked', parent: 'blocked', storage: 'blocked' });
    await page.waitForTimeout(500);
    expect(hits).toBe(0);
    await snap(page, 'artifact-html-preview');

    // The model revises the page: two versions, compared.
    await sendMessage(page, 'Change the title');
    const revisedAnswer = page.getByTestId('message-assistant').nth(1);
    await expect(revisedAnswer).toContainText('Revised');
    // Preview shows once the answer has finished (before that, the last Preview is the first answer's diagram's).
    await revisedAnswer.getByTestId('preview-artifact').click();
    await expect(page.getByTestId('artifact-version')).toHaveText('Version 2 of 2');
    await expect(frame.locator('#title')).toHaveText('Hello again, revised');
    await panel.getByRole('tab', { name: 'Changes from the previous version' }).click();
    await expect(page.getByTestId('artifact-diff').locator('.diff-added')).toContainText('Hello again, revised');
    await expect(page.getByTestId('artifact-diff').locator('.diff-removed')).toContainText('Hello artifact');
    await snap(page, 'artifact-compare');
    expect(hits).toBe(0);
  } finally {
    await openai.close();
    await new Promise((resolve) => lure.close(resolve));
  }
});

test('an image made in the chat, then edited with a prompt', async ({ page, server, admin }) => {
  const openai = await startFakeOpenAI({ models: ['fake-gpt'] });
  const images = await startFakeOpenAIImages({ key: 'sk-img' });
  try {
    await useProvider(server, admin.token, openai);
    const base = (await server.as(admin.token).get('/api/v1/images/config')).body;
    expect((await server.as(admin.token).post('/api/v1/images/config/update', { ...base, ENABLE_IMAGE_GENERATION: true, IMAGES_OPENAI_API_BASE_URL: images.url, IMAGES_OPENAI_API_KEY: 'sk-img' })).status).toBe(200);
    openai.reply((body) => (isTask(body) ? { text: '{"prompt": "a blue square on white, flat colours"}' } : { text: 'Here it is.' }));
    await signIn(page, admin.email, admin.password);
    await page.getByTestId('image-generation-toggle').click();
    await sendMessage(page, 'Draw a blue square');
    const picture = page.getByTestId('image-step').getByTestId('step-picture').locator('img');
    await expect(picture).toBeVisible({ timeout: 30_000 });
    await expect.poll(() => picture.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    expect(images.requests.at(-1)!.body.prompt).toBe('a blue square on white, flat colours');
    await snap(page, 'image-generated');

    await page.getByTestId('edit-image').first().click();
    await page.getByLabel(/What to change in/).fill('make it red');
    await page.getByRole('button', { name: 'Edit image' }).click();
    await expect(page.getByTestId('image-step')).toHaveCount(2, { timeout: 30_000 });
    expect(images.requests.some((r) => r.path === '/v1/images/edits' && r.body.prompt === 'make it red')).toBe(true);
    await snap(page, 'image-edited');
  } finally {
    await openai.close();
    await images.close();
  }
});

test('an admin sets up image generation on Admin → Images, and the code and image pages read in German', async ({ page, server, admin }) => {
  const openai = await startFakeOpenAI({ models: ['fake-gpt'] });
  const images = await startFakeOpenAIImages({ key: 'sk-admin-set' });
  try {
    await useProvider(server, admin.token, openai);
    await signIn(page, admin.email, admin.password);
    await page.goto('/admin/images');
    await page.getByRole('switch', { name: 'Image generation' }).check();
    await page.getByTestId('images-openai-url').fill(images.url);
    await page.getByLabel('API key').fill('sk-admin-set');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
    const saved = (await server.as(admin.token).get('/api/v1/images/config')).body;
    expect(saved).toMatchObject({ ENABLE_IMAGE_GENERATION: true, IMAGES_OPENAI_API_BASE_URL: images.url });
    expect(saved.IMAGES_OPENAI_API_KEY).not.toBe('sk-admin-set');
    // The key set on the page reaches the engine.
    const made = await server.as(admin.token).post('/api/v1/images/generations', { prompt: 'a square' });
    expect(made.status).toBe(200);
    expect(images.requests.at(-1)!.headers.authorization).toBe('Bearer sk-admin-set');
    await snap(page, 'admin-images');

    await inGerman(page);
    await expect(page.getByRole('heading', { name: 'Bilder', exact: true })).toBeVisible();
    await expect(page.getByRole('switch', { name: 'Bilderzeugung' })).toBeChecked();
    await snap(page, 'admin-images-de');
    await page.goto('/admin/code');
    await expect(page.getByRole('heading', { name: 'Code-Ausführung' })).toBeVisible();
    await expect(page.getByText('numpy und pandas sind nicht enthalten')).toBeVisible();
    await snap(page, 'admin-code-de');
    // The composer offers both toggles, named in German.
    await page.goto('/');
    await expect(page.getByTestId('image-generation-toggle')).toHaveAttribute('aria-label', 'Bild erzeugen');
    await expect(page.getByTestId('code-interpreter-toggle')).toHaveAttribute('aria-label', 'Code-Interpreter');
  } finally {
    await openai.close();
    await images.close();
  }
});
