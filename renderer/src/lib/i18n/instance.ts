import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { SOURCE_LANGUAGE, UI_NAMESPACES } from '../../locales/languages';
import { catalogBackend, english } from './catalogs';

/**
 * The UI's i18next instance. English is bundled; other languages load through the backend, all
 * their namespaces at once when the language is chosen (so no screen shows a half-translated
 * moment). Keys are flat (`chat.send` is one key), plural forms use i18next's `_one`/`_other`…
 * suffixes chosen by Intl.PluralRules, and nothing is HTML-escaped: React escapes what it renders.
 */
export const i18n = i18next.createInstance();

void i18n
  .use(catalogBackend)
  .use(initReactI18next)
  .init({
    lng: SOURCE_LANGUAGE,
    fallbackLng: SOURCE_LANGUAGE,
    ns: [...UI_NAMESPACES],
    defaultNS: 'common',
    resources: { [SOURCE_LANGUAGE]: english },
    partialBundledLanguages: true,
    keySeparator: false,
    nsSeparator: false,
    initAsync: false,
    interpolation: { escapeValue: false },
    react: { useSuspense: false, bindI18n: 'languageChanged' },
  });
