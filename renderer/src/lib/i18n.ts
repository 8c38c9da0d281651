import { useSyncExternalStore } from 'react';
import { en, type Strings } from './strings/en';

/** A key of the string dictionary. */
export type StringKey = keyof Strings;

/** Languages the UI ships. English is complete; others fall back to English per key. */
export const LANGUAGES: Array<{ code: string; label: string }> = [{ code: 'en', label: 'English' }];

const dictionaries: Record<string, Partial<Strings>> = { en };
let language = 'en';
const listeners = new Set<() => void>();

/** Switches the UI language (unknown codes fall back to English). */
export function setLanguage(code: string | undefined): void {
  const next = code && dictionaries[code] ? code : 'en';
  if (next === language) return;
  language = next;
  document.documentElement.lang = next;
  for (const l of listeners) l();
}

/** The current language code. */
export function getLanguage(): string {
  return language;
}

/** Translates a key, filling `{name}` placeholders from `vars`. */
export function t(key: StringKey, vars?: Record<string, string | number>): string {
  const text = dictionaries[language]?.[key] ?? en[key];
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m));
}

/** Re-renders the caller when the language changes and returns `t`. */
export function useT(): typeof t {
  useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    () => language,
  );
  return t;
}
