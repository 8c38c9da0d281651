/**
 * The languages Parley speaks and how its catalogs are cut. Shared by the UI (renderer/src/lib/i18n)
 * and the desktop shell (main/i18n.ts); free of DOM and Node so both can import it.
 *
 * A catalog is `locales/<code>/<namespace>.json`. A key is written `<area>.<name>` in code and in
 * the catalog; its area picks the namespace file (`chat.send` lives in chat.json, `sidebar.pin` too).
 */

/** One language of the list, named in itself. */
export interface Language {
  /** BCP 47 code, as the catalogs' folder is named (`pt-BR`, `zh-TW`). */
  code: string;
  /** Its name in itself ("Deutsch", "العربية"): the picker shows these. */
  name: string;
  dir: 'ltr' | 'rtl';
}

/** Every language Parley is translated into, in the picker's order. Only those whose catalogs exist ship. */
export const LANGUAGES: readonly Language[] = [
  { code: 'en', name: 'English', dir: 'ltr' },
  { code: 'de', name: 'Deutsch', dir: 'ltr' },
  { code: 'es', name: 'Español', dir: 'ltr' },
  { code: 'fr', name: 'Français', dir: 'ltr' },
  { code: 'pt-BR', name: 'Português (Brasil)', dir: 'ltr' },
  { code: 'it', name: 'Italiano', dir: 'ltr' },
  { code: 'nl', name: 'Nederlands', dir: 'ltr' },
  { code: 'pl', name: 'Polski', dir: 'ltr' },
  { code: 'tr', name: 'Türkçe', dir: 'ltr' },
  { code: 'ru', name: 'Русский', dir: 'ltr' },
  { code: 'uk', name: 'Українська', dir: 'ltr' },
  { code: 'ja', name: '日本語', dir: 'ltr' },
  { code: 'ko', name: '한국어', dir: 'ltr' },
  { code: 'zh-CN', name: '简体中文', dir: 'ltr' },
  { code: 'zh-TW', name: '繁體中文', dir: 'ltr' },
  { code: 'vi', name: 'Tiếng Việt', dir: 'ltr' },
  { code: 'ar', name: 'العربية', dir: 'rtl' },
  { code: 'he', name: 'עברית', dir: 'rtl' },
];

/** The language every other falls back to, key by key; its catalogs are complete by definition. */
export const SOURCE_LANGUAGE = 'en';

/**
 * Pseudo-locales (development and test builds only, never in a production list): `en-XA` is
 * English with accented letters, about 40% longer and bracketed, to find clipped labels and text
 * that skipped the catalogs; `ar-XB` is English forced right to left, to check the mirrored layout
 * before a right-to-left language's catalogs exist.
 */
export const PSEUDO_LANGUAGES: readonly Language[] = [
  { code: 'en-XA', name: 'Ƥšéûðö', dir: 'ltr' },
  { code: 'ar-XB', name: 'Pseudo RTL', dir: 'rtl' },
];

/** The catalog files of each language. `desktop` is read by the desktop shell only. */
export const NAMESPACES = ['common', 'auth', 'chat', 'library', 'workspace', 'admin', 'account', 'setup', 'errors', 'desktop', 'channels'] as const;
export type Namespace = (typeof NAMESPACES)[number];

/** The namespaces the UI loads. */
export const UI_NAMESPACES: readonly Namespace[] = NAMESPACES.filter((ns) => ns !== 'desktop');

/**
 * The namespaces every screen may need (sidebar, chat, sign-in, errors): English ones are part of
 * the first load. The others belong to one area of pages (workspace, admin, account, setup) and
 * load with those pages, in every language; a test checks that code outside those pages uses
 * only these.
 */
export const CORE_NAMESPACES: readonly Namespace[] = ['common', 'auth', 'chat', 'library', 'errors'];

/** Which namespace file holds the keys of each area (the part of a key before its first dot). */
export const NAMESPACE_OF_AREA: Readonly<Record<string, Namespace>> = {
  common: 'common',
  app: 'common',
  nav: 'common',
  theme: 'common',
  date: 'common',
  format: 'common',
  language: 'common',
  auth: 'auth',
  chat: 'chat',
  sidebar: 'chat',
  artifacts: 'chat',
  library: 'library',
  share: 'library',
  workspace: 'workspace',
  knowledge: 'workspace',
  prompts: 'library',
  notes: 'library',
  admin: 'admin',
  lan: 'admin',
  usage: 'admin',
  builtin: 'admin',
  account: 'account',
  reference: 'account',
  setup: 'setup',
  errors: 'errors',
  desktop: 'desktop',
  channels: 'channels',
};

/** The namespace of a key (`chat.send` → `chat`); unknown areas belong to `common`. */
export function namespaceOf(key: string): Namespace {
  return NAMESPACE_OF_AREA[key.slice(0, key.indexOf('.'))] ?? 'common';
}

/** The writing direction of a language code. */
export function directionOf(code: string): 'ltr' | 'rtl' {
  return [...LANGUAGES, ...PSEUDO_LANGUAGES].find((l) => l.code === code)?.dir ?? 'ltr';
}

/** Regional codes that map onto another code than their base language (`pt-PT` reads pt-BR, `zh-HK` zh-TW). */
const REGIONAL: Readonly<Record<string, string>> = {
  pt: 'pt-BR',
  zh: 'zh-CN',
  'zh-cn': 'zh-CN',
  'zh-tw': 'zh-TW',
  'zh-hans': 'zh-CN',
  'zh-sg': 'zh-CN',
  'zh-hant': 'zh-TW',
  'zh-hk': 'zh-TW',
  'zh-mo': 'zh-TW',
  iw: 'he',
};

/**
 * The best of `available` for a person's preferred languages (the browser's or the OS's, most
 * preferred first): an exact match, then the regional rule, then the base language.
 */
export function matchLanguage(preferred: readonly string[], available: readonly string[]): string | undefined {
  const byLower = new Map(available.map((code) => [code.toLowerCase(), code]));
  for (const wanted of preferred) {
    const lower = wanted.toLowerCase().replace(/_/g, '-');
    const parts = lower.split('-');
    // A tag with a script or region of its own (zh-Hant, zh-HK) takes only that variant: a reader
    // of Traditional Chinese is not served Simplified. Other tags fall back to their base language.
    const variant = REGIONAL[lower] ?? (parts.length > 2 ? REGIONAL[`${parts[0]}-${parts[1]}`] : undefined) ?? (parts.length > 1 ? REGIONAL[`${parts[0]}-${parts[parts.length - 1]}`] : undefined);
    const candidates = variant ? [lower, variant] : [lower, parts[0], REGIONAL[parts[0]!]];
    for (const candidate of candidates) {
      const found = candidate ? byLower.get(candidate.toLowerCase()) : undefined;
      if (found) return found;
    }
  }
  return undefined;
}
