import OpenAI from 'openai';
import { startFakeOpenAI } from '../fixtures/fake-openai';
import { expect, signIn, snap, test } from './fixtures';

test('the API reference opens from the account menu, rendered from /api/openapi.json with nothing fetched from elsewhere', async ({ page, server, admin }) => {
  test.setTimeout(150_000);
  const foreign: string[] = [];
  page.on('request', (req) => {
    if (!req.url().startsWith(server.url) && !req.url().startsWith('data:') && !req.url().startsWith('blob:')) foreign.push(req.url());
  });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await signIn(page, admin.email, admin.password);
  await page.getByRole('button', { name: /Ada Admin/ }).click();
  await page.getByRole('menuitem', { name: 'API reference' }).click();
  await expect(page.getByRole('heading', { name: 'API reference', level: 1 })).toBeVisible();
  const reference = page.getByTestId('api-reference');
  // The viewer is a large chunk loaded only now: give a busy machine time to parse it.
  await expect(reference.getByText('Parley API', { exact: false }).first()).toBeVisible({ timeout: 45_000 });
  await expect(reference.getByRole('link', { name: '/v1/chat/completions', exact: true })).toBeVisible();
  await expect(reference.getByRole('link', { name: '/v1/embeddings', exact: true })).toBeVisible();
  await snap(page, 'api-reference');
  // Swagger UI draws a long list of operations as the reader scrolls (only those near the screen
  // are in the page): scroll down to the sign-in operation as a person would.
  const signInOperation = reference.getByRole('link', { name: '/auths/signin', exact: true });
  await expect(async () => {
    await page.mouse.move(760, 500);
    await page.mouse.wheel(0, 1200);
    await expect(signInOperation).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  expect(foreign).toEqual([]);
  expect(errors).toEqual([]);
});

test('an admin sees a /v1 request in the API usage table', async ({ page, server, admin }) => {
  const upstream = await startFakeOpenAI({ models: ['gpt-fake'] });
  try {
    await server.as(admin.token).post('/compat/config/update', { COMPAT_API_BASE_URLS: [upstream.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
    upstream.reply({ text: 'hello', usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 } });
    const key = (await server.as(admin.token).post('/api/v1/auths/api_key')).body.api_key as string;
    const client = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    await client.chat.completions.create({ model: 'gpt-fake', messages: [{ role: 'user', content: 'Hi' }] });

    await signIn(page, admin.email, admin.password);
    await page.goto('/admin');
    await page.getByRole('link', { name: 'API usage' }).click();
    const table = page.getByRole('table', { name: 'API usage' });
    const row = table.getByRole('row').filter({ hasText: 'gpt-fake' });
    await expect(row).toHaveCount(1);
    // The day shows as people read dates (the UI's language), counted in UTC.
    const today = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date());
    await expect(row.getByRole('cell')).toHaveText([today, 'Ada Admin', 'gpt-fake', '1', '12', '3', '15']);
    await snap(page, 'admin-api-usage');
  } finally {
    await upstream.close();
  }
});
