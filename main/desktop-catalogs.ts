// The desktop shell's texts in every shipped language: the `desktop` namespace of the UI's
// catalogs (renderer/src/locales/<code>/desktop.json), bundled into main. A language folder
// added there is added here too (shell-text.test.ts checks that none is missing).
import ar from '../renderer/src/locales/ar/desktop.json';
import de from '../renderer/src/locales/de/desktop.json';
import en from '../renderer/src/locales/en/desktop.json';
import es from '../renderer/src/locales/es/desktop.json';
import fr from '../renderer/src/locales/fr/desktop.json';
import he from '../renderer/src/locales/he/desktop.json';
import it from '../renderer/src/locales/it/desktop.json';
import ja from '../renderer/src/locales/ja/desktop.json';
import ko from '../renderer/src/locales/ko/desktop.json';
import nl from '../renderer/src/locales/nl/desktop.json';
import pl from '../renderer/src/locales/pl/desktop.json';
import ptBR from '../renderer/src/locales/pt-BR/desktop.json';
import ru from '../renderer/src/locales/ru/desktop.json';
import tr from '../renderer/src/locales/tr/desktop.json';
import uk from '../renderer/src/locales/uk/desktop.json';
import vi from '../renderer/src/locales/vi/desktop.json';
import zhCN from '../renderer/src/locales/zh-CN/desktop.json';
import zhTW from '../renderer/src/locales/zh-TW/desktop.json';

/** The `desktop` catalog of each shipped language, by code. */
export const DESKTOP_CATALOGS: Readonly<Record<string, Readonly<Record<string, string>>>> = { en, de, ar, es, fr, he, it, ja, ko, nl, pl, 'pt-BR': ptBR, ru, tr, uk, vi, 'zh-CN': zhCN, 'zh-TW': zhTW };

/** A key of the desktop catalog (plural keys without their suffix). */
export type DesktopKey = keyof typeof en extends infer K ? (K extends `${infer Base}_${'one' | 'other'}` ? Base : K) : never;
