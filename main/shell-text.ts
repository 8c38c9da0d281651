import i18next from 'i18next';
import { matchLanguage, SOURCE_LANGUAGE } from '../renderer/src/locales/languages';
import { DESKTOP_CATALOGS, type DesktopKey } from './desktop-catalogs';

/** The desktop shell's words (menus, tray, dialogs) in one language, which can change while it runs. */
export interface ShellText {
  /** The text of a key in the current language, placeholders filled from `vars` (`count` picks a plural form). */
  t(key: DesktopKey, vars?: Record<string, string | number>): string;
  /** The current language code. */
  language(): string;
  /** Switches to the closest shipped language of `code` (English if none); true when it changed. */
  setLanguage(code: string | null | undefined): boolean;
}

/**
 * The shell's texts through i18next, from the same catalogs as the UI. The first language is the
 * closest shipped one to `preferred` (the OS's languages, most preferred first), else English;
 * the owner's own choice replaces it once known (setLanguage).
 */
export function createShellText(preferred: readonly string[] = []): ShellText {
  const shipped = Object.keys(DESKTOP_CATALOGS);
  const instance = i18next.createInstance();
  void instance.init({
    resources: Object.fromEntries(Object.entries(DESKTOP_CATALOGS).map(([code, catalog]) => [code, { desktop: catalog }])),
    lng: SOURCE_LANGUAGE,
    fallbackLng: SOURCE_LANGUAGE,
    ns: ['desktop'],
    defaultNS: 'desktop',
    keySeparator: false,
    nsSeparator: false,
    initAsync: false,
    interpolation: { escapeValue: false },
  });
  let current = matchLanguage(preferred, shipped) ?? SOURCE_LANGUAGE;
  let translate = instance.getFixedT(current, 'desktop');
  return {
    t: (key, vars) => translate(key, vars),
    language: () => current,
    setLanguage(code) {
      const next = (code && matchLanguage([code], shipped)) || SOURCE_LANGUAGE;
      if (next === current) return false;
      current = next;
      translate = instance.getFixedT(current, 'desktop');
      return true;
    },
  };
}
