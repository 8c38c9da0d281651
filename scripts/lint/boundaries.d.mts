import type { ESLint } from 'eslint';

/** Parley's own lint rules: `boundaries` and `migration-name`. */
declare const plugin: ESLint.Plugin;
export default plugin;
