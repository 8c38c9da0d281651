import { defineConfig } from '@playwright/test';

/**
 * The packaged desktop app's smoke test (test/electron/smoke.spec.ts), kept apart from the
 * browser tests of `npm test`: it needs a real Electron binary and an app built by
 * electron-builder, which the desktop workflow has after packaging. Elsewhere it is skipped
 * with the reason. Run: `npx playwright test -c playwright.electron.config.ts`.
 */
export default defineConfig({
  testDir: 'test/electron',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results/electron',
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 240_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never', outputFolder: 'playwright-report-electron' }]] : [['list']],
  use: { trace: 'retain-on-failure', screenshot: 'only-on-failure' },
});
