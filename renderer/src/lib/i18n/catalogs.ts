import type { BackendModule, ResourceKey } from 'i18next';
import type account from '../../locales/en/account.json';
import type admin from '../../locales/en/admin.json';
import type channels from '../../locales/en/channels.json';
import auth from '../../locales/en/auth.json';
import chat from '../../locales/en/chat.json';
import common from '../../locales/en/common.json';
import errors from '../../locales/en/errors.json';
import library from '../../locales/en/library.json';
import type setup from '../../locales/en/setup.json';
import type workspace from '../../locales/en/workspace.json';
import { PSEUDO_LANGUAGES, SOURCE_LANGUAGE } from '../../locales/languages';

/** English core namespaces: part of the first load, so the first screen never waits for words. */
export const englishCore = { auth, chat, common, errors, library };

/** English namespaces of the pages that load on demand (types only: their text loads with the pages). */
type EnglishPages = { account: typeof account; admin: typeof admin; channels: typeof channels; setup: typeof setup; workspace: typeof workspace };
type English = typeof englishCore & EnglishPages;

/** Every catalog key of the UI in English (plural forms carry their `_one`/`_other` suffix). */
export type CatalogKey = {
  [N in keyof English]: keyof English[N] & string;
}[keyof English];

/** Every other catalog file (other languages, and English page namespaces): one chunk each, fetched when first used. */
const lazyCatalogs = import.meta.glob<{ default: ResourceKey }>(['../../locales/*/*.json', '!../../locales/en/{auth,chat,common,errors,library}.json', '!../../locales/*/desktop.json']);

/** The loader of one catalog file, if it exists. */
const loaderOf = (language: string, namespace: string) => lazyCatalogs[`../../locales/${language}/${namespace}.json`];

/** Codes of the languages whose catalogs ship (folders under locales/). */
export const shippedCodes: readonly string[] = [...new Set([SOURCE_LANGUAGE, ...Object.keys(lazyCatalogs).map((path) => path.split('/')[3]!)])];

/** True when the pseudo-locale is offered: in development, or in a build made to test it. */
export const pseudoEnabled = import.meta.env.DEV || import.meta.env.VITE_PSEUDO_LOCALE === '1';

/** The i18next backend: reads a language's catalog file through Vite's dynamic import (the pseudo-locale from English). */
export const catalogBackend: BackendModule = {
  type: 'backend',
  callbackApi: true,
  init() {},
  read(language, namespace, callback) {
    const pseudo = pseudoEnabled ? PSEUDO_LANGUAGES.find((p) => p.code === language) : undefined;
    if (pseudo) {
      const core = englishCore[namespace as keyof typeof englishCore] as ResourceKey | undefined;
      Promise.all([import('./pseudo'), core ?? loaderOf(SOURCE_LANGUAGE, namespace)?.().then((m) => m.default) ?? {}]).then(
        ([m, source]) => callback(null, m.pseudoCatalog(source as Record<string, string>, pseudo.dir)),
        (error: Error) => callback(error, null),
      );
      return;
    }
    const load = loaderOf(language, namespace);
    if (!load) {
      callback(null, {});
      return;
    }
    load().then(
      (m) => callback(null, m.default),
      (error: Error) => callback(error, null),
    );
  },
};
