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

/**
 * Picks the plural form of `one form|other form` for the number in `count` (or `n`), by the
 * language's plural rules; texts without `|` are returned as they are.
 */
function pluralForm(text: string, vars: Record<string, string | number>): string {
  if (!text.includes('|')) return text;
  const forms = text.split('|');
  const n = typeof vars.count === 'number' ? vars.count : typeof vars.n === 'number' ? vars.n : Number(vars.count ?? vars.n);
  if (!Number.isFinite(n)) return forms[forms.length - 1]!;
  return new Intl.PluralRules(language).select(n) === 'one' ? forms[0]! : forms[forms.length - 1]!;
}

/** Translates a key, filling `{name}` placeholders from `vars`; `a|b` texts pick their plural form by `count` (or `n`). */
export function t(key: StringKey, vars?: Record<string, string | number>): string {
  const raw = dictionaries[language]?.[key] ?? en[key];
  if (!vars) return raw;
  const text = pluralForm(raw, vars);
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
