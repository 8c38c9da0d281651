import { mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';

export { expect };

/** Where the screenshots of the main screens go (looked at by people, not compared). */
export const SCREENSHOTS = path.resolve(import.meta.dirname, '../../test-results/screenshots');

/** Saves a full-page screenshot under test-results/screenshots/<name>.png. */
export async function snap(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: false, animations: 'disabled' });
}

/** Signs in through the form. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: /^Model:/ })).toBeVisible();
}

/** A fresh service for each test (temp data dir, memory secrets) serving the UI built in global setup. */
/** Types a message into the composer and sends it with Enter, as a person does. */
export async function sendMessage(page: Page, text: string): Promise<void> {
  const input = page.getByLabel('Send a message');
  await input.fill(text);
  await input.press('Enter');
}

export const test = base.extend<{ server: TestServer; admin: TestUser }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies by destructuring
  server: async ({}, use) => {
    const rendererDir = process.env.PARLEY_E2E_RENDERER;
    if (!rendererDir) throw new Error('global setup did not build the UI');
    const server = await startTestServer({ rendererDir });
    await use(server);
    await server.close();
  },
  baseURL: async ({ server }, use) => {
    await use(server.url);
  },
  admin: async ({ server }, use) => {
    await use(await signupAdmin(server, { name: 'Ada Admin', email: 'ada@example.com', password: 'admin-password' }));
  },
});

let pseudoUi: Promise<string> | undefined;

/**
 * The UI built with the pseudo-locales offered (`en-XA` long and accented, `ar-XB` right to
 * left), as development builds offer them; built once per run, only by the specs that use it.
 */
export function pseudoRendererDir(): Promise<string> {
  pseudoUi ??= (async () => {
    const { build } = await import('vite');
    const root = path.resolve(import.meta.dirname, '../..');
    const outDir = mkdtempSync(path.join(os.tmpdir(), 'parley-e2e-pseudo-ui-'));
    process.env.VITE_PSEUDO_LOCALE = '1';
    try {
      await build({ configFile: path.join(root, 'renderer/vite.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true } });
    } finally {
      delete process.env.VITE_PSEUDO_LOCALE;
    }
    return outDir;
  })();
  return pseudoUi;
}

/** `test` against a service serving the pseudo-locale build. */
export const pseudoTest = test.extend<{ server: TestServer }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies by destructuring
  server: async ({}, use) => {
    const server = await startTestServer({ rendererDir: await pseudoRendererDir() });
    await use(server);
    await server.close();
  },
});
