import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['server/**/*.test.ts', 'main/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/dist/**/*.test.ts', 'scripts/**/*.test.ts', 'renderer/src/**/*.test.ts', 'test/electron/**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**', 'test/e2e/**'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    teardownTimeout: 10_000,
  },
});
