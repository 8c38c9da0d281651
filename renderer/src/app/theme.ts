/** Theme handling: light, dark, or follow the system; applied to <html data-theme>. */
export type ThemeChoice = 'light' | 'dark' | 'system';

const KEY = 'parley.theme';
const media = typeof window !== 'undefined' ? window.matchMedia('(prefers-color-scheme: dark)') : undefined;
let current: ThemeChoice = readStored();

function readStored(): ThemeChoice {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' || v === 'system' ? v : 'system';
  } catch {
    return 'system';
  }
}

/** Parses any stored value into a theme choice. */
export function asTheme(value: unknown): ThemeChoice | undefined {
  return value === 'light' || value === 'dark' || value === 'system' ? value : undefined;
}

function paint(): void {
  const dark = current === 'dark' || (current === 'system' && !!media?.matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

/** The chosen theme. */
export function getTheme(): ThemeChoice {
  return current;
}

/** Applies and remembers a theme on this device. */
export function applyTheme(choice: ThemeChoice): void {
  current = choice;
  try {
    localStorage.setItem(KEY, choice);
  } catch {
    /* private mode */
  }
  paint();
}

/** Paints the stored theme at start and follows system changes. */
export function initTheme(): void {
  paint();
  media?.addEventListener('change', () => current === 'system' && paint());
}
