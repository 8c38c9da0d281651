import type { Page } from '@playwright/test';
import { DEFAULT_CODE_EXECUTION_CONFIG } from '../../server/contracts/code';
import { expect, signIn, snap, test } from './fixtures';

/** Has the service report `flags` as on in its public config, as it does once an admin turns those features on. */
async function reportOn(page: Page, flags: () => string[]): Promise<void> {
  await page.route('**/api/config', async (route) => {
    // Playwright's own request may meet a keep-alive socket the service just closed: ask once more.
    const response = await route.fetch().catch(() => route.fetch());
    const body = (await response.json()) as { features: Record<string, boolean> };
    for (const flag of flags()) body.features[flag] = true;
    await route.fulfill({ response, json: body });
  });
}

test('switches for features the service does not report on are hidden from permissions, groups and the model editor', async ({ page, server, admin }) => {
  const fresh = (await server.as(admin.token).get('/api/config')).body as { features: Record<string, unknown> };
  // A fresh install: web search and image generation wait for an admin; the code interpreter runs offline and is on.
  for (const flag of ['enable_web_search', 'enable_image_generation']) expect(fresh.features[flag]).not.toBe(true);
  expect(fresh.features.enable_code_interpreter).toBe(true);
  // The admin turns the code interpreter off: none of these features is on now, their switches must not be offered.
  const saved = await server.as(admin.token).post('/api/v1/configs/code_execution', { ...DEFAULT_CODE_EXECUTION_CONFIG, ENABLE_CODE_INTERPRETER: false });
  expect(saved.status).toBe(200);
  const config = (await server.as(admin.token).get('/api/config')).body as { features: Record<string, unknown> };
  for (const flag of ['enable_web_search', 'enable_image_generation', 'enable_code_interpreter']) expect(config.features[flag]).not.toBe(true);
  await server.as(admin.token).post('/api/v1/groups/create', { name: 'Research', description: '' });

  await signIn(page, admin.email, admin.password);
  await page.goto('/admin/permissions');
  await expect(page.getByRole('switch', { name: 'Tools', exact: true })).toBeVisible();
  for (const name of ['Web search', 'Image generation', 'Code interpreter']) await expect(page.getByRole('switch', { name })).toHaveCount(0);
  await snap(page, 'admin-permissions-working-features');

  await page.goto('/admin/groups');
  await page.getByRole('button', { name: 'Edit: Research' }).click();
  const edit = page.getByRole('dialog');
  await expect(edit.getByRole('switch', { name: 'Export' })).toBeVisible();
  await expect(edit.getByRole('switch', { name: 'Code interpreter' })).toHaveCount(0);
  await edit.getByRole('button', { name: 'Cancel' }).click();

  await page.goto('/workspace/models/new');
  await expect(page.getByRole('button', { name: 'vision', exact: true })).toBeVisible();
  for (const name of ['web search', 'image generation', 'code interpreter']) await expect(page.getByRole('button', { name, exact: true })).toHaveCount(0);
});

test('a feature the service reports on shows its switches by itself, the others stay hidden', async ({ page, admin }) => {
  await reportOn(page, () => ['enable_web_search']);
  await signIn(page, admin.email, admin.password);
  await page.goto('/admin/permissions');
  await expect(page.getByRole('switch', { name: 'Web search' })).toBeVisible();
  // The code interpreter is on out of the box (it runs offline); image generation is not.
  await expect(page.getByRole('switch', { name: 'Code interpreter' })).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Image generation' })).toHaveCount(0);
  await page.goto('/workspace/models/new');
  await expect(page.getByRole('button', { name: 'web search', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'code interpreter', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'image generation', exact: true })).toHaveCount(0);
});

test('Deutsch: only the switches of working features, and a feature turned on appears', async ({ page, server, admin }) => {
  await server.as(admin.token).post('/api/v1/users/user/settings/update', { language: 'de' });
  await reportOn(page, () => ['enable_image_generation']);
  await page.goto('/');
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Neuer Chat' })).toBeVisible();
  await page.goto('/admin/permissions');
  await expect(page.getByRole('switch', { name: 'Bilderzeugung' })).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Code-Interpreter' })).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Websuche' })).toHaveCount(0);
  await snap(page, 'i18n-de-admin-permissions-working-features');
  await page.goto('/workspace/models/new');
  await expect(page.getByRole('button', { name: 'Bilderzeugung', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Websuche', exact: true })).toHaveCount(0);
});

test('a feature an admin turns on shows its switches without reloading the page', async ({ page, admin }) => {
  let webSearchOn = false;
  await reportOn(page, () => (webSearchOn ? ['enable_web_search'] : []));
  await signIn(page, admin.email, admin.password);
  await page.goto('/admin/permissions');
  await expect(page.getByRole('switch', { name: 'Tools', exact: true })).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Web search' })).toHaveCount(0);

  // An admin saves settings that turn the feature on (the service now reports it on).
  webSearchOn = true;
  const tabs = page.getByRole('navigation', { name: 'Admin settings' });
  await tabs.getByRole('link', { name: 'Authentication' }).click();
  await page.getByRole('switch', { name: 'Allow new sign-ups' }).uncheck();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  await tabs.getByRole('link', { name: /permissions/i }).click();
  await expect(page.getByRole('switch', { name: 'Web search' })).toBeVisible();
});
