import js from '@eslint/js';
import globals from 'globals';
import i18next from 'eslint-plugin-i18next';
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
  // A non-ASCII character in a regex literal (esbuild escapes strings, not regexes) makes V8 keep
  // the whole built chunk's source at two bytes a character: write it as \uXXXX (docs/performance.md).
  {
    files: ['server/**/*.ts'],
    ignores: ['server/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': ['error', { selector: 'Literal[regex.pattern=/[^\\x00-\\x7F]/]', message: 'Write non-ASCII characters in a regex as \\uXXXX escapes: the built chunk stays one byte a character.' }],
    },
  },
  // STYLE rule 10: past ~400 lines a file is split.
  {
    files: ['**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', 'test/**'],
    rules: { 'max-lines': ['warn', { max: 400 }] },
  },
  // Every text a person reads comes from the catalogs (renderer/src/locales): no literal words in
  // JSX text or in the attributes people read (labels, titles, placeholders, hints, alt texts).
  {
    files: ['renderer/src/**/*.tsx'],
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': [
        'error',
        {
          mode: 'jsx-only',
          'should-validate-template': true,
          'jsx-attributes': { include: ['^aria-(label|description|valuetext|placeholder|roledescription)$', '^(title|placeholder|alt|label|hint|message|summary|caption|empty|none|action)$', 'Label$', 'Text$', '^confirm'] },
          // Strings with no letter at all (separators, symbols, numbers) are not words to translate.
          words: { exclude: [/^[^\p{L}]*$/u, /^[A-Z0-9_]+$/, /^(OpenAPI|Ollama|Parley|Python|Hugging Face|llama\.cpp|JSON|YAML|Markdown|HTML|PDF)$/] },
          callees: { exclude: ['^t$', 'i18n(ext)?', 'require', 'addEventListener', 'removeEventListener', 'postMessage', 'getElementById', 'querySelector(All)?', 'includes', 'indexOf', 'endsWith', 'startsWith', 'encodeURIComponent', 'matchMedia', 'classes', 'cx', 'Intl\\..*', 'toLocale.*String'] },
          'object-properties': { exclude: ['^(queryKey|className|key|type|role|mode|variant|kind|status|id|name|testId|inputMode|autoComplete)$', '^[A-Z_-]+$'] },
        },
      ],
    },
  },
  // …nor in what toasts, questions and thrown errors say.
  {
    files: ['renderer/src/features/**/*.{ts,tsx}', 'renderer/src/components/**/*.{ts,tsx}', 'renderer/src/app/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['CallExpression[callee.name=/^(toast|confirm)$/]', 'NewExpression[callee.name=/Error$/]'].flatMap((call) => [
          { selector: `${call} > Literal:first-child[value=/\\p{L}{3}/u]`, message: 'Text people read comes from the catalogs: t(key).' },
          { selector: `${call} > TemplateLiteral:first-child > TemplateElement[value.raw=/\\p{L}{3}/u]`, message: 'Text people read comes from the catalogs: t(key).' },
        ]),
      ],
    },
  },
  // The desktop shell's menus, tray, dialogs and notices come from the desktop catalog (main/shell-text.ts).
  {
    files: ['main/**/*.ts'],
    ignores: ['main/**/*.test.ts', 'main/testing/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['Property[key.name=/^(label|title|message|detail|toolTip|body)$/]', 'Property[key.name="buttons"] > ArrayExpression', 'CallExpression[callee.property.name=/^(showErrorBox|setToolTip|setTitle)$/]'].flatMap((where) => [
          // The product's name (the window title) is the same in every language.
          { selector: `${where} > Literal[value=/\\p{L}{3}/u]:not([value="Parley"])`, message: 'Text people read comes from the desktop catalog: text.t(key).' },
          { selector: `${where} > TemplateLiteral > TemplateElement[value.raw=/\\p{L}{3}/u]`, message: 'Text people read comes from the desktop catalog: text.t(key).' },
        ]),
      ],
    },
  },
  {
    files: ['test/**/*.ts', '**/*.test.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
