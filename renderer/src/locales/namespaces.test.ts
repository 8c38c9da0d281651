import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORE_NAMESPACES, NAMESPACE_OF_AREA, type Namespace } from './languages';

/**
 * Page namespaces (workspace, admin, account, setup) load with their pages (app/App.tsx), so code
 * outside those pages may use only the core namespaces, which are always there: a key from a page
 * namespace used in the sidebar would show as a bare key until that page was opened.
 */

const src = path.resolve(import.meta.dirname, '..');

/** Which page namespaces the files under a path may use, besides the core ones (as App.tsx loads them). */
const PAGES: Array<[RegExp, Namespace[]]> = [
  [/^features\/(admin|builtin)\//, ['admin']],
  [/^features\/setup\//, ['setup', 'admin']],
  [/^features\/workspace\/|^features\/prompts\/PromptsList\.tsx$|^components\/AccessEditor\.tsx$/, ['workspace']],
  [/^features\/(account|reference)\//, ['account']],
  // The sidebar's part and the live notices run on every page: they use core keys only.
  [/^features\/channels\/(?!ChannelsSection\.tsx$|use-channels-live\.ts$|live\.ts$)/, ['channels']],
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'locales' ? [] : sources(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const areas = Object.keys(NAMESPACE_OF_AREA).join('|');
const keyPattern = new RegExp(`['\`"]((?:${areas})\\.[\\w.$-]*)`, 'g');

describe('where each namespace is used', () => {
  it('only page code uses page namespaces', () => {
    const misplaced: string[] = [];
    for (const file of sources(src)) {
      const relative = path.relative(src, file).split(path.sep).join('/');
      const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, '');
      const allowed = new Set<Namespace>([...CORE_NAMESPACES, ...PAGES.filter(([pattern]) => pattern.test(relative)).flatMap(([, ns]) => ns)]);
      for (const [, key] of code.matchAll(keyPattern)) {
        const ns = NAMESPACE_OF_AREA[key!.slice(0, key!.indexOf('.'))]!;
        if (!allowed.has(ns)) misplaced.push(`${relative}: ${key} (${ns}.json loads only with its pages)`);
      }
    }
    expect(misplaced).toEqual([]);
  });
});
