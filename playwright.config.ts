import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

/**
 * Where Debian's Chromium is (PARLEY_CHROMIUM overrides). Where there is none (macOS, Windows),
 * Playwright's own Chromium is used: install it once with `npx playwright install chromium`.
 */
const systemChromium = process.env.PARLEY_CHROMIUM ?? '/usr/bin/chromium';

/** Browser tests: Debian's Chromium (never a downloaded browser) against a real service per test. */
export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './test/e2e/global-setup.ts',
  outputDir: 'test-results/playwright',
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]] : [['list']],
  use: {
    ...devices['Desktop Chrome'],
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      ...(existsSync(systemChromium) ? { executablePath: systemChromium } : {}),
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
});
