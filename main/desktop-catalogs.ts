// The desktop shell's texts in every shipped language: the `desktop` namespace of the UI's
// catalogs (renderer/src/locales/<code>/desktop.json), bundled into main. A language folder
// added there is added here too (shell-text.test.ts checks that none is missing).
import de from '../renderer/src/locales/de/desktop.json';
import en from '../renderer/src/locales/en/desktop.json';
import ja from '../renderer/src/locales/ja/desktop.json';
import ko from '../renderer/src/locales/ko/desktop.json';

/** The `desktop` catalog of each shipped language, by code. */
export const DESKTOP_CATALOGS: Readonly<Record<string, Readonly<Record<string, string>>>> = { en, de, ja, ko };

/** A key of the desktop catalog (plural keys without their suffix). */
export type DesktopKey = keyof typeof en extends infer K ? (K extends `${infer Base}_${'one' | 'other'}` ? Base : K) : never;
