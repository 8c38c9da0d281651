import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
  {
    files: ['test/**/*.ts', '**/*.test.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
