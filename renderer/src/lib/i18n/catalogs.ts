import type { BackendModule, ResourceKey } from 'i18next';
import account from '../../locales/en/account.json';
import admin from '../../locales/en/admin.json';
import auth from '../../locales/en/auth.json';
import chat from '../../locales/en/chat.json';
import common from '../../locales/en/common.json';
import errors from '../../locales/en/errors.json';
import library from '../../locales/en/library.json';
import setup from '../../locales/en/setup.json';
import workspace from '../../locales/en/workspace.json';
import { PSEUDO_LANGUAGE, SOURCE_LANGUAGE } from '../../locales/languages';

/** English, the source language: part of the first load, so it never waits and every fallback is at hand. */
export const english = { account, admin, auth, chat, common, errors, library, setup, workspace };

/** Every catalog key of the UI in English (plural forms carry their `_one`/`_other` suffix). */
export type CatalogKey = {
  [N in keyof typeof english]: keyof (typeof english)[N] & string;
}[keyof typeof english];

/** Other languages: one chunk per catalog file, fetched the first time the language is used. */
const others = import.meta.glob<{ default: ResourceKey }>(['../../locales/*/*.json', '!../../locales/en/*.json', '!../../locales/*/desktop.json']);

/** Codes of the languages whose catalogs ship (folders under locales/ with a common.json). */
export const shippedCodes: readonly string[] = [SOURCE_LANGUAGE, ...new Set(Object.keys(others).map((path) => path.split('/')[3]!))];

/** True when the pseudo-locale is offered: in development, or in a build made to test it. */
export const pseudoEnabled = import.meta.env.DEV || import.meta.env.VITE_PSEUDO_LOCALE === '1';

/** The i18next backend: reads a language's catalog file through Vite's dynamic import (the pseudo-locale from English). */
export const catalogBackend: BackendModule = {
  type: 'backend',
  callbackApi: true,
  init() {},
  read(language, namespace, callback) {
    if (pseudoEnabled && language === PSEUDO_LANGUAGE.code) {
      const source = english[namespace as keyof typeof english] as Record<string, string> | undefined;
      import('./pseudo').then(
        (m) => callback(null, m.pseudoCatalog(source ?? {})),
        (error: Error) => callback(error, null),
      );
      return;
    }
    const load = others[`../../locales/${language}/${namespace}.json`];
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
