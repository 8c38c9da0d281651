import i18next from 'i18next';
import { CORE_NAMESPACES, SOURCE_LANGUAGE } from '../../locales/languages';
import { catalogBackend, englishCore } from './catalogs';

/**
 * The UI's i18next instance. English core namespaces are bundled; everything else loads through
 * the backend: a language's core namespaces when it is chosen (before the switch shows), page
 * namespaces with their pages (`loadTexts`), and again in the new language on each switch.
 * Keys are flat (`chat.send` is one key), plural forms use i18next's `_one`/`_other`… suffixes
 * chosen by Intl.PluralRules, and nothing is HTML-escaped: React escapes what it renders.
 * Shipped catalogs are complete (catalogs.test.ts), so only development falls back to English
 * for a missing key; a production switch fetches the new language's files and nothing else.
 */
export const i18n = i18next.createInstance();

void i18n
  .use(catalogBackend)
  .init({
    lng: SOURCE_LANGUAGE,
    fallbackLng: import.meta.env.DEV ? SOURCE_LANGUAGE : false,
    ns: [...CORE_NAMESPACES],
    defaultNS: 'common',
    resources: { [SOURCE_LANGUAGE]: englishCore },
    partialBundledLanguages: true,
    keySeparator: false,
    nsSeparator: false,
    initAsync: false,
    interpolation: { escapeValue: false },
  });
