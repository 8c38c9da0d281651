/**
 * Where a signed-out person was going (a shared chat link, a chat), kept while they sign in or
 * sign up and wait for approval, so they land there afterwards. Tab-scoped (sessionStorage):
 * it survives the reloads of the approval wait, not another tab.
 */
const KEY = 'parley.returnTo';

/** Paths that are the sign-in screen itself, never a destination. */
const SCREENS = new Set(['/', '/signin', '/signup']);

/** Remembers `path` (with its query) unless it is the sign-in screen itself or not a path of this site. */
export function rememberReturnTo(path: string): void {
  const pathname = path.split(/[?#]/)[0] ?? '';
  if (SCREENS.has(pathname) || !path.startsWith('/') || path.startsWith('//')) return;
  try {
    sessionStorage.setItem(KEY, path);
  } catch {
    /* storage refused: the person lands on the home page */
  }
}

/** The remembered path, once: it is forgotten as it is read. */
export function takeReturnTo(): string | null {
  try {
    const path = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    return path;
  } catch {
    return null;
  }
}
