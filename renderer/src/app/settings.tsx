import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { UserSettings } from '../../../server/contracts/users';
import { usersApi } from '../api/users';
import { localLanguage, setLanguage } from '../lib/i18n';
import { applyTheme, asTheme, getTheme, type ThemeChoice } from './theme';

const LOCAL_KEY = 'parley.settings';

interface SettingsApi {
  settings: UserSettings;
  theme: ThemeChoice;
  /** Merges a change, applies it, and saves the whole object to the account (and this device). */
  update(patch: Partial<UserSettings>): Promise<void>;
}

const SettingsContext = createContext<SettingsApi | null>(null);

function readLocal(): UserSettings {
  try {
    return JSON.parse(localStorage.getItem(LOCAL_KEY) ?? '{}') as UserSettings;
  } catch {
    return {};
  }
}

function writeLocal(settings: UserSettings): void {
  try {
    localStorage.setItem(LOCAL_KEY, JSON.stringify(settings));
  } catch {
    /* private mode */
  }
}

/** UI settings of the signed-in user: loaded from /user/settings (or this device), saved back whole. */
export function SettingsProvider({ children }: { children: ReactNode }) {
  const [settings, setSettings] = useState<UserSettings>(() => ({ theme: getTheme(), ...readLocal() }));

  useEffect(() => {
    let alive = true;
    usersApi
      .settings()
      .then((remote) => {
        if (!alive || !remote || typeof remote !== 'object') return;
        setSettings((local) => ({ ...local, ...remote }));
        // A language picked on the sign-in page becomes the account's when the account has none yet.
        const picked = localLanguage();
        if (!remote.language && picked) void usersApi.setSettings({ ...remote, language: picked }).catch(() => undefined);
      })
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, []);

  useEffect(() => {
    const theme = asTheme(settings.theme);
    if (theme && theme !== getTheme()) applyTheme(theme);
    // No saved language: keep the first guess (this device's choice or the browser's languages).
    if (settings.language) void setLanguage(settings.language);
  }, [settings.theme, settings.language]);

  const update = useCallback(
    async (patch: Partial<UserSettings>) => {
      const next = { ...settings, ...patch } as UserSettings;
      setSettings(next);
      writeLocal(next);
      const theme = asTheme(next.theme);
      if (theme) applyTheme(theme);
      try {
        await usersApi.setSettings(next);
      } catch {
        /* the settings API may not exist yet: this device keeps them */
      }
    },
    [settings],
  );

  const value = useMemo<SettingsApi>(() => ({ settings, theme: asTheme(settings.theme) ?? getTheme(), update }), [settings, update]);
  return <SettingsContext.Provider value={value}>{children}</SettingsContext.Provider>;
}

/** The settings API. */
export function useSettings(): SettingsApi {
  const ctx = useContext(SettingsContext);
  // eslint-disable-next-line no-restricted-syntax -- a programming error, never shown to people
  if (!ctx) throw new Error('useSettings outside SettingsProvider');
  return ctx;
}
