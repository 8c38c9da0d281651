import { useMemo, useSyncExternalStore } from 'react';
import { directionOf, LANGUAGES, matchLanguage, namespaceOf, PSEUDO_LANGUAGES, SOURCE_LANGUAGE, type Language, type Namespace } from '../../locales/languages';
import { pseudoEnabled, shippedCodes, type CatalogKey } from './catalogs';
import { i18n } from './instance';

type PluralSuffix = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';

/** A key of the catalogs, as code writes it: plural keys without their suffix (`workspace.files`). */
export type StringKey = CatalogKey extends infer K ? (K extends `${infer Base}_${PluralSuffix}` ? Base : K) : never;

/** Values for a text's `{{placeholders}}`; `count` also picks the plural form. */
export type TextVars = Record<string, string | number>;

/**
 * Translates a key in the current language (English where a catalog lacks it), filling
 * `{{name}}` placeholders from `vars`; with `count`, the language's plural form is chosen.
 */
export function t(key: StringKey, vars?: TextVars): string {
  return i18n.t(key, { ...vars, ns: namespaceOf(key) });
}

/** True when the catalogs hold `key`, plain or in plural forms (for keys built at run time, such as error codes). */
export function hasText(key: string): key is StringKey {
  return i18n.exists(key, { ns: namespaceOf(key), count: 1 });
}

function subscribe(onChange: () => void): () => void {
  i18n.on('languageChanged', onChange);
  return () => i18n.off('languageChanged', onChange);
}

/** The current language code, re-rendering the component when it changes. */
export function useLanguage(): string {
  return useSyncExternalStore(subscribe, () => i18n.language);
}

/**
 * `t` for a component: it renders again when the language changes (the function's identity
 * changes too, so memos that use it follow). Kept to a store subscription rather than
 * react-i18next's hook: this runs on every screen's first load, where every kilobyte counts.
 */
export function useT(): typeof t {
  const language = useLanguage();
  return useMemo(() => ((key: StringKey, vars?: TextVars) => t(key, vars)) as typeof t, [language]);
}

/** The languages a person can pick here: every shipped one, plus the pseudo-locale in development. */
export function availableLanguages(): Language[] {
  const shipped = LANGUAGES.filter((l) => shippedCodes.includes(l.code));
  return pseudoEnabled ? [...shipped, ...PSEUDO_LANGUAGES] : shipped;
}

/** A code this UI can show: itself when available, else its closest available language, else English. */
export function supportedLanguage(code: string | undefined | null): string {
  if (!code) return SOURCE_LANGUAGE;
  return matchLanguage([code], availableLanguages().map((l) => l.code)) ?? SOURCE_LANGUAGE;
}

/**
 * Loads a page area's namespaces (workspace, admin, account, setup) in the current language;
 * later language switches load them too. Pages await it before they render (see app/App.tsx).
 */
export function loadTexts(namespaces: readonly Namespace[]): Promise<void> {
  return i18n.loadNamespaces([...namespaces]).then(() => undefined);
}

/** The current language code. */
export function currentLanguage(): string {
  return i18n.language;
}

/** Sets `lang` and `dir` on <html> for a language: the layout mirrors for right-to-left ones. */
function applyToDocument(code: string): void {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = code;
  document.documentElement.dir = directionOf(code);
}

i18n.on('languageChanged', applyToDocument);

/** Calls `listener` with each new language code; returns the unsubscribe function. */
export function onLanguageChange(listener: (code: string) => void): () => void {
  i18n.on('languageChanged', listener);
  return () => i18n.off('languageChanged', listener);
}

/**
 * Switches the UI to a language (its catalogs are fetched first, so the switch shows no English
 * gaps). Unknown codes fall back to their closest available language or English.
 */
export async function setLanguage(code: string | undefined | null): Promise<void> {
  const next = supportedLanguage(code);
  if (next === i18n.language) return;
  await i18n.changeLanguage(next);
}

/** Where a choice made before signing in (or on this device) is kept. */
const LOCAL_KEY = 'parley.language';

/** The language this device last chose, if any. */
export function localLanguage(): string | undefined {
  try {
    return localStorage.getItem(LOCAL_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Remembers a choice on this device (the sign-in page shows it next time). */
export function rememberLanguage(code: string): void {
  try {
    localStorage.setItem(LOCAL_KEY, code);
  } catch {
    /* private mode: the choice lasts this visit */
  }
}

/** The first language to show: this device's last choice, else the browser's languages, else English. */
export function initialLanguage(): string {
  const local = localLanguage();
  if (local) return supportedLanguage(local);
  return matchLanguage(navigator.languages ?? [navigator.language], availableLanguages().map((l) => l.code)) ?? SOURCE_LANGUAGE;
}

/** Loads the first language before the first render (English needs no loading). */
export async function startLanguage(): Promise<void> {
  const first = initialLanguage();
  applyToDocument(first);
  await setLanguage(first);
  applyToDocument(i18n.language);
}
