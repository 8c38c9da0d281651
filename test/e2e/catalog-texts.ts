import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';

const locales = path.resolve(import.meta.dirname, '../../renderer/src/locales');

/** Every text of a language's catalogs, by key. */
export function catalog(code: string): Record<string, string> {
  const dir = path.join(locales, code);
  return Object.assign({}, ...readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Record<string, string>));
}

/** The visible texts of the page that equal one of `texts`: whole lines, and labels, titles and placeholders. */
export async function englishOnScreen(page: Page, texts: string[]): Promise<string[]> {
  return page.evaluate((list) => {
    // Runs in the page (DOM types are not part of this Node project).
    const { document } = globalThis as any;
    const wanted = new Set(list);
    const found = new Set<string>();
    for (const line of document.body.innerText.split('\n')) if (wanted.has(line.trim())) found.add(line.trim());
    for (const el of Array.from(document.querySelectorAll('[aria-label], [title], [placeholder]')) as any[]) {
      if (el.closest('.swagger-host')) continue;
      for (const attr of ['aria-label', 'title', 'placeholder']) {
        const value = el.getAttribute(attr);
        if (value && wanted.has(value)) found.add(`${attr}="${value}"`);
      }
    }
    return [...found];
  }, texts);
}
