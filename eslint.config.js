import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import parley from './scripts/lint/boundaries.mjs';

const restrict = (patterns, paths = []) => ({ 'no-restricted-imports': ['error', { patterns, paths }] });
const NO_KNEX = { name: 'knex', allowTypeImports: true, message: 'knex belongs in *.repo.ts and platform/db.' };

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'renderer/dist/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-namespace': 'off',
    },
  },
  // Boundaries (STYLE.md): electron only in main/; knex only in repos and platform/db;
  // Orama only in retrieval/; contracts free of Node; the renderer imports only contracts.
  {
    files: ['server/**/*.ts'],
    ignores: ['server/**/*.repo.ts', 'server/platform/db/**', 'server/**/*.test.ts'],
    rules: restrict(
      [
        { group: ['electron'], message: 'server/ never imports Electron.' },
        { group: ['@orama/*'], message: 'Orama belongs in server/retrieval/.' },
      ],
      [NO_KNEX],
    ),
  },
  {
    files: ['server/retrieval/**/*.ts'],
    rules: restrict([{ group: ['electron'], message: 'server/ never imports Electron.' }], [NO_KNEX]),
  },
  {
    files: ['server/contracts/**/*.ts'],
    rules: restrict([{ group: ['node:*', 'fs', 'path', 'crypto', '../*', '!./*'], message: 'contracts import only zod and each other.' }]),
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: restrict([
      { group: ['electron'], message: 'The renderer never imports Electron.' },
      { group: ['**/server/*', '!**/server/contracts', '!**/server/contracts/*'], message: 'The renderer imports only server/contracts.' },
    ]),
  },
  // Electron is the shell's alone: only main/index.ts wires it and main/preload.ts bridges it.
  {
    files: ['main/**/*.ts'],
    ignores: ['main/index.ts', 'main/preload.ts', 'main/**/*.test.ts'],
    rules: restrict([{ group: ['electron'], message: 'Only main/index.ts and main/preload.ts import Electron; pass what you need in (see main/facade.ts).' }]),
  },
  // Domain boundaries (scripts/lint/boundaries.mjs): another domain only through its index.ts,
  // platform/ imports no domain, main/ reaches the service only through server/index.ts, the knex
  // Db type only in repos and composition. Cycles are checked by test/integration/import-graph.test.ts.
  {
    files: ['server/**/*.ts', 'main/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { parley },
    rules: { 'parley/boundaries': 'error' },
  },
  {
    files: ['server/platform/db/migrations/*.ts'],
    plugins: { parley },
    rules: { 'parley/migration-name': 'error' },
  },
  // STYLE rule 10: past ~400 lines a file is split.
  {
    files: ['**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', 'test/**'],
    rules: { 'max-lines': ['warn', { max: 400 }] },
  },
  {
    files: ['test/**/*.ts', '**/*.test.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
