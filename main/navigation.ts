import type { ShellLog, WebContentsLike } from './facade';

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/**
 * True when `url` is a page of the local service at `origin` (for example
 * `http://127.0.0.1:41234`): same scheme, host and port, plain http, no credentials.
 * Everything else (file:, javascript:, data:, blob:, other ports, look-alike hosts) is not.
 */
export function isAppUrl(url: string, origin: string): boolean {
  const parsed = parse(url);
  const expected = parse(origin);
  if (!parsed || !expected) return false;
  return parsed.protocol === 'http:' && parsed.username === '' && parsed.password === '' && parsed.origin === expected.origin;
}

/** True when `url` may be handed to the system browser: http(s) only, never a local file or a script. */
export function isSafeExternalUrl(url: string): boolean {
  const parsed = parse(url);
  return parsed !== undefined && (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
}

/** Opens `url` in the system browser when it is safe to; returns whether it did. */
export function openExternal(url: string, open: (url: string) => Promise<void>, log?: ShellLog): boolean {
  if (!isSafeExternalUrl(url)) {
    log?.warn(`refused to open a non-web link: ${url.slice(0, 100)}`);
    return false;
  }
  open(url).catch((error: unknown) => log?.warn(`could not open ${url}: ${String(error)}`));
  return true;
}

/**
 * Locks a web page to the local service: navigating or redirecting elsewhere is cancelled (web
 * links go to the system browser instead), new windows are refused (likewise), and <webview> is
 * never attached. `origin` is read on every event, since the service starts after the first page.
 */
export function guardWebContents(contents: WebContentsLike, origin: () => string | undefined, open: (url: string) => Promise<void>, log?: ShellLog): void {
  const allowed = (url: string) => {
    const current = origin();
    return current !== undefined && isAppUrl(url, current);
  };
  contents.on('will-navigate', (event) => {
    if (allowed(event.url)) return;
    event.preventDefault();
    openExternal(event.url, open, log);
  });
  contents.on('will-redirect', (event) => {
    if (!allowed(event.url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  // Frames inside the page (a preview, a sandboxed tool result) never leave the service either.
  contents.on('will-frame-navigate', (event) => {
    if (event.isMainFrame || allowed(event.url)) return;
    event.preventDefault();
  });
  contents.setWindowOpenHandler((details) => {
    // The app's own files and citation links need the window's session: download them here,
    // since the system browser is not signed in.
    if (allowed(details.url)) contents.downloadURL(details.url);
    else openExternal(details.url, open, log);
    return { action: 'deny' };
  });
}
